// Every path from a JavaScript string into Rust, against nostr-tools, on
// random Unicode text: every UTF-8 width (1 to 4 bytes), escapes, U+FFFD
// and U+2028 as text, lone surrogates, and lengths from 0 to 4,096 UTF-8
// bytes that cross every power of two (a string read into a buffer of a
// guessed size is cut at such a length when its characters are wide).
//
// Policy for lone surrogates (half of a UTF-16 pair, no UTF-8 form):
// - event fields (content, tag values), event JSON, subscription ids and
//   filter JSON are refused: `getEventHash` and `finalizeEvent` throw an
//   `ERR_ITO_INVALID` Error naming the field and the string index,
//   `verifyEvent` answers false. nostr-tools hashes `JSON.stringify`'s
//   `\udXXX` escape instead: an event whose JSON ito's parser, serde_json
//   and relays built on it reject, so no ito path accepts it either.
// - NIP-19 strings (relays, `d` identifiers) become U+FFFD, as nostr-tools'
//   `TextEncoder` writes them: both libraries decode the same pointer.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import * as theirs19 from 'nostr-tools/nip19'
import { matchFilter } from 'nostr-tools/filter'
import { ito, pure, secretKey, copy } from './helpers.mjs'

// A seeded generator: the same strings on every run (mulberry32).
function rng(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
}

const int = (r, lo, hi) => lo + Math.floor(r() * (hi - lo + 1))

/** One character (one or two UTF-16 units) of the class `kind`. */
function char(r, kind) {
  switch (kind) {
    case 'ascii':
      return String.fromCharCode(int(r, 0x20, 0x7e))
    case 'escape': // bytes NIP-01 escapes, and DEL, which it does not
      return '"\\\n\r\t\b\f\u0000\u0001\u001f\u007f'[int(r, 0, 10)]
    case 'two':
      return String.fromCharCode(int(r, 0x80, 0x7ff))
    case 'three': {
      const c = int(r, 0x800, 0xfffd - 0x800) // skip the surrogate range
      return String.fromCharCode(c < 0xd800 ? c : c + 0x800)
    }
    case 'four':
      return String.fromCodePoint(int(r, 0x10000, 0x10ffff))
    case 'special':
      return ['\ufffd', '\u2028', '\u2029', '\ufeff', 'é', '😀'][int(r, 0, 5)]
    case 'lone':
      return String.fromCharCode(r() < 0.5 ? int(r, 0xd800, 0xdbff) : int(r, 0xdc00, 0xdfff))
  }
}

const KINDS = ['ascii', 'escape', 'two', 'three', 'four', 'special']

/** UTF-8 byte lengths to aim at: around every power of two to 4,096, the
 * old 256-byte guess in particular, and a few anywhere in between. */
function targets(r) {
  const out = [0, 1, 2, 3]
  for (let p = 2; p <= 4096; p *= 2) out.push(p - 3, p - 2, p - 1, p, p + 1, p + 2, p + 3)
  for (let i = 0; i < 24; i++) out.push(int(r, 0, 4096))
  return out.filter((n) => n >= 0 && n <= 4096)
}

const utf8Length = (s) => Buffer.byteLength(s, 'utf8')

/** A string of about `bytes` UTF-8 bytes: of one width only (so its end
 * lands on each side of a boundary), or mixed; `lone` adds a lone
 * surrogate somewhere. */
function text(r, bytes, lone) {
  const only = r() < 0.6 ? KINDS[int(r, 0, KINDS.length - 1)] : null
  let s = ''
  while (utf8Length(s) < bytes) s += char(r, only ?? KINDS[int(r, 0, KINDS.length - 1)])
  if (lone) {
    const at = int(r, 0, s.length)
    // Not between the halves of a pair, which would make the pair lone too.
    const cut = s.codePointAt(at - 1) > 0xffff ? at + 1 : at
    s = s.slice(0, cut) + char(r, 'lone') + s.slice(cut)
  }
  return s
}

const hasLoneSurrogate = (s) => !s.isWellFormed()

/** Cases: a string per target length (about one in eight with a lone
 * surrogate), each with a second, shorter string for the other tag. */
function cases(seed) {
  const r = rng(seed)
  return targets(r).map((bytes, i) => {
    const lone = i % 8 === 5
    return { s: text(r, bytes, lone), t: text(r, int(r, 0, 300), false) }
  })
}

const CASES = cases(35)

test('the cases cover every width, lone surrogates, and both sides of each length', () => {
  const all = CASES.map((c) => c.s).join('')
  for (const kind of ['two', 'three', 'four']) {
    assert.ok([...all].some((ch) => utf8Length(ch) === { two: 2, three: 3, four: 4 }[kind]), kind)
  }
  assert.ok(CASES.some((c) => hasLoneSurrogate(c.s)))
  const lengths = new Set(CASES.map((c) => utf8Length(c.s)))
  for (const n of [255, 256, 257, 4096]) {
    assert.ok([...lengths].some((l) => Math.abs(l - n) <= 3), `near ${n}`)
  }
  assert.ok(CASES.filter((c) => utf8Length(c.s) > 256 && !/^[\x00-\x7f]*$/.test(c.s)).length > 20)
})

const template = ({ s, t }, i) => ({
  kind: 30000 + (i % 10),
  created_at: 1700000000 + i,
  tags: [['d', s], ['t', t], ['e', '00'.repeat(32), s]],
  content: s,
})

const refused = (field) => (e) => e instanceof Error && e.code === 'ERR_ITO_INVALID' && e.field === field

test('getEventHash equals nostr-tools, or refuses a lone surrogate naming the field', () => {
  for (const [i, c] of CASES.entries()) {
    const unsigned = { ...template(c, i), pubkey: pure.getPublicKey(secretKey) }
    if (hasLoneSurrogate(c.s)) {
      assert.throws(() => ito.getEventHash(unsigned), refused('tags'))
      assert.throws(() => ito.getEventHash({ ...unsigned, tags: [] }), refused('content'))
    } else {
      assert.equal(ito.getEventHash(unsigned), pure.getEventHash(unsigned), `case ${i}`)
    }
  }
})

test('finalizeEvent signs what nostr-tools verifies; verifyEvent agrees in every input form', async () => {
  const batch = []
  const expected = []
  for (const [i, c] of CASES.entries()) {
    const lone = hasLoneSurrogate(c.s)
    if (lone) {
      assert.throws(() => ito.finalizeEvent(template(c, i), secretKey), refused('tags'))
    } else {
      const ours = ito.finalizeEvent(template(c, i), secretKey)
      assert.equal(pure.verifyEvent(copy(ours)), true, `case ${i}: nostr-tools rejects ito's event`)
      assert.equal(ours.id, pure.getEventHash(ours))
    }
    // Signed by nostr-tools, read by ito in every form.
    const signed = pure.finalizeEvent(template(c, i), secretKey)
    const json = JSON.stringify(signed)
    for (const form of [signed, json, Buffer.from(json), new TextEncoder().encode(json)]) {
      assert.equal(ito.verifyEvent(form), !lone, `case ${i}`)
    }
    const changed = copy(signed)
    changed.content = c.s + 'x'
    assert.equal(ito.verifyEvent(changed), false)
    batch.push(signed, json, changed)
    expected.push(!lone, !lone, false)
  }
  assert.deepEqual(await ito.verifyEvents(batch), expected)
  assert.deepEqual(await ito.verifyEvents(batch, { threads: 2 }), expected)
})

test('FilterIndex: tag values and subscription ids of any text match as matchFilter does', () => {
  const index = new ito.FilterIndex()
  for (const [i, c] of CASES.entries()) {
    const filters = [{ '#t': [c.t] }, { '#d': [c.s], kinds: [30000 + (i % 10)] }]
    if (hasLoneSurrogate(c.s)) {
      // JSON.stringify writes it as `\udXXX`, which the parser refuses at
      // its offset; written raw, the text itself is refused.
      const offset = (e) => e.code === 'ERR_ITO_INVALID' && Number.isInteger(e.offset)
      assert.throws(() => index.add(`sub${i}`, JSON.stringify(filters)), offset)
      const raw = '{"#t":["' + c.s.replace(/[\x00-\x1f"\\]/g, '') + '"]}'
      assert.throws(() => index.add(`sub${i}`, raw), refused('filters'))
      assert.throws(() => index.matches(`{"content":"${c.s.replace(/[\x00-\x1f"\\]/g, '')}"}`), refused('event'))
      assert.throws(() => index.add(c.s, '{}'), refused('subId'))
      assert.throws(() => index.remove(c.s), refused('subId'))
      continue
    }
    index.add(c.s, JSON.stringify(filters))
    const event = pure.finalizeEvent(template(c, i), secretKey)
    const other = pure.finalizeEvent({ ...template(c, i), tags: [['d', c.s + 'x'], ['t', c.t + 'x']] }, secretKey)
    for (const e of [event, other]) {
      const expect = filters.some((f) => matchFilter(f, e))
      const hits = index.matches(JSON.stringify(e))
      assert.equal(hits.includes(c.s), expect, `case ${i}`)
    }
    assert.equal(index.remove(c.s), true)
    assert.equal(index.remove(c.s), false)
  }
  assert.equal(index.size, 0)
})

test('nip19: relays and d identifiers of any text decode to the same pointer in both libraries', () => {
  const pubkey = pure.getPublicKey(secretKey)
  for (const [i, c] of CASES.entries()) {
    // A TLV value holds at most 255 bytes (TextEncoder's bytes: U+FFFD for
    // a lone surrogate); nostr-tools writes a wrong length byte past that.
    const fits = new TextEncoder().encode(c.s).length <= 255
    const pointers = [
      ['nprofile', { pubkey, relays: [c.s, 'wss://x'] }],
      ['nevent', { id: '11'.repeat(32), relays: [c.s], author: pubkey, kind: 1 }],
      ['naddr', { identifier: c.s, pubkey, kind: 30023, relays: [c.t.slice(0, 60)] }],
    ]
    for (const [type, data] of pointers) {
      const encode = `${type}Encode`
      if (!fits) {
        assert.throws(() => ito.nip19[encode](data), Error, `case ${i}`)
        continue
      }
      const ours = ito.nip19[encode](data)
      const other = theirs19[encode](data)
      // What the pointer's strings become through UTF-8. (nostr-tools'
      // decoder also drops a leading U+FEFF, as TextDecoder does by
      // default; ito keeps the text as it is.)
      const expected = {
        type,
        data: {
          ...data,
          relays: data.relays.map((x) => x.toWellFormed()),
          ...(data.identifier === undefined ? {} : { identifier: data.identifier.toWellFormed() }),
        },
      }
      assert.deepEqual(ito.nip19.decode(ours), expected, `case ${i} ${type}`)
      assert.deepEqual(ito.nip19.decode(other), expected, `case ${i} ${type}`)
      assert.deepEqual(theirs19.decode(ours), theirs19.decode(other), `case ${i} ${type}`)
    }
  }
})
