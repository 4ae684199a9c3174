"""Every path from a Python ``str`` into Rust, on random Unicode text.

The text has every UTF-8 width (1 to 4 bytes), the bytes NIP-01 escapes,
U+FFFD and U+2028 as text, and lengths from 0 to 4,096 UTF-8 bytes around
every power of two (a reader that guesses a buffer size cuts wide text at
such lengths). The oracles are hashlib + json (conftest.oracle_id) and
coincurve (conftest.oracle_sig_ok).

A ``str`` holding a lone surrogate (``"\\ud800"``) has no UTF-8 form:
every function refuses it with ``UnicodeEncodeError``, never U+FFFD.
"""

import json
import random

import pytest

from ito_codecs import nip19, nostr

from conftest import oracle_id, oracle_sig_ok

KEY = bytes(range(1, 33))


def char(rng, kind):
    if kind == "ascii":
        return chr(rng.randint(0x20, 0x7E))
    if kind == "escape":
        return rng.choice('"\\\n\r\t\b\f\x00\x01\x1f\x7f')
    if kind == "two":
        return chr(rng.randint(0x80, 0x7FF))
    if kind == "three":
        c = rng.randint(0x800, 0xFFFD - 0x800)
        return chr(c if c < 0xD800 else c + 0x800)
    if kind == "four":
        return chr(rng.randint(0x10000, 0x10FFFF))
    return rng.choice(["\ufffd", "\u2028", "\u2029", "\ufeff", "é", "😀"])


KINDS = ["ascii", "escape", "two", "three", "four", "special"]


def text(rng, nbytes):
    only = rng.choice(KINDS) if rng.random() < 0.6 else None
    out = []
    size = 0
    while size < nbytes:
        c = char(rng, only or rng.choice(KINDS))
        out.append(c)
        size += len(c.encode())
    return "".join(out)


def cases():
    rng = random.Random(35)
    targets = [0, 1, 2, 3]
    p = 4
    while p <= 4096:
        targets += [p - 3, p - 1, p, p + 1, p + 3]
        p *= 2
    targets += [rng.randint(0, 4096) for _ in range(16)]
    return [text(rng, n) for n in targets if 0 <= n <= 4096]


CASES = cases()


def test_cases_cross_the_lengths_in_wide_text():
    wide = [s for s in CASES if len(s.encode()) > 256 and not s.isascii()]
    assert len(wide) > 15
    for width in (2, 3, 4):
        assert any(len(c.encode()) == width for s in CASES for c in s)


def template(s, i):
    return {
        "kind": 30000 + i % 10,
        "created_at": 1_700_000_000 + i,
        "tags": [["d", s], ["t", s[:50]], ["e", "00" * 32, s]],
        "content": s,
    }


@pytest.mark.parametrize("i", range(len(CASES)))
def test_sign_ids_and_verification_agree_with_the_oracles(i):
    s = CASES[i]
    event = json.loads(nostr.sign(template(s, i), KEY))
    assert event["content"] == s and event["tags"][0] == ["d", s]
    assert event["id"] == oracle_id(event)
    assert oracle_sig_ok(event)
    line = json.dumps(event, ensure_ascii=False)
    for form in (line, line.encode(), json.dumps(event)):
        assert nostr.event_id(form) == event["id"]
        assert nostr.verify(form)
    # The template as JSON text is the same event.
    again = json.loads(nostr.sign(json.dumps(template(s, i), ensure_ascii=False), KEY))
    assert again["id"] == event["id"]


def test_batch_forms_agree():
    lines = []
    for i, s in enumerate(CASES):
        event = json.loads(nostr.sign(template(s, i), KEY))
        lines.append(json.dumps(event, ensure_ascii=False))
    assert all(v.ok for v in nostr.verify_all(lines))
    assert all(v.ok for _, v in nostr.verify_jsonl("\n".join(lines).encode()))


@pytest.mark.parametrize("i", range(len(CASES)))
def test_nip19_strings_round_trip(i):
    s = CASES[i]
    pubkey = nostr.public_key(KEY)
    data = {"identifier": s, "pubkey": pubkey, "kind": 30023, "relays": [s, "wss://x"]}
    if len(s.encode()) > 255:  # a TLV value holds at most 255 bytes
        with pytest.raises(Exception):
            nip19.encode("naddr", data)
        return
    assert nip19.decode(nip19.encode("naddr", data)) == {"type": "naddr", "data": data}


LONE = ["\ud800", "a\udfff", "é" * 200 + "\udbff", "\udc00" + "😀" * 100]


@pytest.mark.parametrize("lone", LONE)
def test_lone_surrogates_are_refused_everywhere(lone):
    with pytest.raises(UnicodeEncodeError):
        nostr.sign(template(lone, 0), KEY)
    with pytest.raises(UnicodeEncodeError):
        nostr.sign({**template("x", 0), "tags": [["t", lone]]}, KEY)
    with pytest.raises(UnicodeEncodeError):
        nostr.event_id('{"content":"' + lone + '"}')
    with pytest.raises(UnicodeEncodeError):
        nip19.encode("naddr", {"identifier": lone, "pubkey": "00" * 32, "kind": 1, "relays": []})
