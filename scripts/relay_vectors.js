// Generates data/nostr/relay_vectors.json: relay messages and events as
// JavaScript's JSON.stringify writes them (what clients parse), the
// reference for crates/ito/tests/nostr_relay.rs.
//
//   node scripts/relay_vectors.js > data/nostr/relay_vectors.json
//
// Each case gives the inputs (a subscription id, a message text, an event
// written pretty-printed with CRLF line ends, tags spelled with escapes)
// and the expected bytes of every relay message and of the event itself.
"use strict";

const controls = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)).join("");
const strings = [
  "",
  "plain",
  controls,
  "\x7f DEL, \u0080 C1, \u2028 LS, \u2029 PS",
  "quote \" backslash \\ slash / tab\tnewline\n",
  "é ü 中文 😀 \uFFFD \uFEFF",
  "<script>alert('x')</script> & more",
  "duplicate: already have this event",
  "x".repeat(300) + "\n" + "y".repeat(40),
  // Long text of every UTF-8 width, past 256 bytes and other powers of two:
  // a reader that guesses a buffer size cuts such text at a character
  // boundary, which long ASCII alone never shows.
  "é".repeat(128),
  "😀".repeat(64) + "!",
  "日本語のテキストは一文字が三バイトです。".repeat(14),
  "aé中😀\n".repeat(410),
];

function hex(seed, n) {
  let out = "";
  for (let i = 0; i < n; i++) out += ((seed * 31 + i * 7) % 256).toString(16).padStart(2, "0");
  return out;
}

// Pretty-printed with CRLF: every whitespace byte between tokens.
function pretty(value) {
  return JSON.stringify(value, null, "\t").replace(/\n/g, "\r\n");
}

// Tag strings written with escapes JSON allows but JSON.stringify never
// writes: \/ (odd positions) and \u0061 for "a" (even positions), each on
// its own so that either one alone must be re-escaped.
function looseString(s, position) {
  let out = '"';
  for (const ch of s) {
    if (ch === "/" && position % 2 === 1) out += "\\/";
    else if (ch === "a" && position % 2 === 0) out += "\\u0061";
    else out += JSON.stringify(ch).slice(1, -1);
  }
  return out + '"';
}
function looseTags(tags) {
  return "[ " + tags.map((t) => "[ " + t.map(looseString).join(" ,\r\n ") + " ]").join(",\t") + " ]";
}

const cases = [];
strings.forEach((s, i) => {
  const sub = Array.from(s).slice(0, 64).join("") || "sub"; // whole characters
  const tags = [["e", hex(i + 1, 32)], ["t", s, "a/b"], ["p", hex(i + 2, 32), "wss://relay.example/" + i]];
  const event = {
    id: hex(i, 32),
    pubkey: hex(i + 100, 32),
    created_at: 1700000000 + i * 86400 * 365,
    kind: (i * 7919) % 65536,
    tags: i % 3 === 0 ? [] : tags,
    content: s,
    sig: hex(i + 200, 64),
  };
  const inputLoose = pretty({ ...event, tags: "@@TAGS@@" }).replace('"@@TAGS@@"', looseTags(event.tags));
  cases.push({
    sub,
    message: s,
    count: i * 1000003,
    event_input: pretty(event),
    event_input_loose: inputLoose,
    event: JSON.stringify(event),
    relay_event: JSON.stringify(["EVENT", sub, event]),
    ok_true: JSON.stringify(["OK", event.id, true, s]),
    ok_false: JSON.stringify(["OK", event.id, false, s]),
    eose: JSON.stringify(["EOSE", sub]),
    closed: JSON.stringify(["CLOSED", sub, s]),
    notice: JSON.stringify(["NOTICE", s]),
    auth: JSON.stringify(["AUTH", s]),
    count_exact: JSON.stringify(["COUNT", sub, { count: i * 1000003 }]),
    count_approximate: JSON.stringify(["COUNT", sub, { count: i * 1000003, approximate: true }]),
  });
});

process.stdout.write(JSON.stringify({ generator: "scripts/relay_vectors.js", node: process.version, cases }, null, 1) + "\n");
