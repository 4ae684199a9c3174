"""Shared test data: the repository's real events and freshly signed ones.

Signed events are made with coincurve (libsecp256k1's BIP-340), ids with
hashlib + json: both oracles are independent of ito.
"""

import hashlib
import json
import pathlib
import random

import coincurve
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
EVENTS_JSONL = ROOT / "data" / "nostr" / "events.jsonl"


def canonical(ev):
    """NIP-01 canonical serialization, as the spec writes it in JSON."""
    return json.dumps(
        [0, ev["pubkey"], ev["created_at"], ev["kind"], ev["tags"], ev["content"]],
        separators=(",", ":"),
        ensure_ascii=False,
    ).encode()


def oracle_id(ev):
    return hashlib.sha256(canonical(ev)).hexdigest()


def oracle_sig_ok(ev):
    key = coincurve.PublicKeyXOnly(bytes.fromhex(ev["pubkey"]))
    return key.verify(bytes.fromhex(ev["sig"]), bytes.fromhex(ev["id"]))


# Content that exercises every escaping rule of NIP-01.
TRICKY = [
    "",
    "plain",
    'quote " backslash \\ slash /',
    "controls \x00\x01\x1f\x7f \b\f\n\r\t",
    "unicode é ü 日本語 😀 \u2028\u2029",
    "</script>&<>'",
    "x" * 5000,
]


def sign(secret, kind, created_at, tags, content):
    """A signed event as a dict (id and signature computed by the oracles)."""
    priv = coincurve.PrivateKey(secret)
    pubkey = coincurve.PublicKeyXOnly.from_secret(secret).format().hex()
    ev = {"pubkey": pubkey, "created_at": created_at, "kind": kind, "tags": tags, "content": content}
    ev["id"] = oracle_id(ev)
    ev["sig"] = priv.sign_schnorr(bytes.fromhex(ev["id"]), b"\x00" * 32).hex()
    return ev


def make_events(n, seed=7):
    """`n` signed events with varied content, tags and formatting."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        secret = rng.randbytes(32) if hasattr(rng, "randbytes") else bytes(rng.getrandbits(8) for _ in range(32))
        content = TRICKY[i % len(TRICKY)] + "".join(
            rng.choice("abc \"\\\n\té😀/") for _ in range(rng.randrange(0, 40))
        )
        tags = [["t", "tag\"" + str(i)], ["e", "%064x" % rng.getrandbits(256)]][: i % 3]
        out.append(sign(secret, rng.choice([0, 1, 7, 30023]), 1_700_000_000 + i, tags, content))
    return out


def to_json(ev, style):
    """Event JSON in one of several spellings ito must all accept."""
    if style == 0:
        return json.dumps(ev, separators=(",", ":"), ensure_ascii=False)
    if style == 1:
        return json.dumps(ev, indent=1)  # whitespace everywhere, \u escapes
    return json.dumps(dict(reversed(list(ev.items()))), ensure_ascii=True)  # fields reordered


@pytest.fixture(scope="session")
def real_events():
    lines = EVENTS_JSONL.read_bytes().splitlines()
    assert len(lines) >= 9
    return lines


@pytest.fixture(scope="session")
def signed_events():
    return make_events(60)
