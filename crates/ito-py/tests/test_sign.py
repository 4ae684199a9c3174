"""Signing and NIP-19 against independent oracles.

Signatures are checked with coincurve (libsecp256k1's BIP-340), ids with
hashlib + json (conftest.oracle_id). NIP-19 strings are checked with the
reference bech32 implementation of BIP-173 (the ``bech32`` package on
PyPI) plus the small TLV reader below, written from NIP-19's text.
"""

import json
import os
import random

import bech32 as ref
import coincurve
import pytest

import ito_codecs
from ito_codecs import nip19, nostr

from conftest import TRICKY, oracle_id, oracle_sig_ok

KEY_HEX = "7f7ff03d123792d6ac594bfa67bf6d0c0ab55b6b1fdb6249303fe861f1ccba9a"


def ref_decode(s):
    """(prefix, payload bytes) by the BIP-173 reference, without its 90-character limit."""
    s_lower = s.lower()
    pos = s_lower.rfind("1")
    hrp = s_lower[:pos]
    data = [ref.CHARSET.find(c) for c in s_lower[pos + 1 :]]
    assert -1 not in data and ref.bech32_verify_checksum(hrp, data), s
    payload = ref.convertbits(data[:-6], 5, 8, False)
    assert payload is not None, s
    return hrp, bytes(payload)


def ref_encode(hrp, payload):
    return ref.bech32_encode(hrp, ref.convertbits(list(payload), 8, 5))


def ref_tlv(payload):
    """NIP-19 TLV records as {type: [values]}."""
    out, i = {}, 0
    while i < len(payload):
        t, n = payload[i], payload[i + 1]
        out.setdefault(t, []).append(payload[i + 2 : i + 2 + n])
        i += 2 + n
    return out


def test_sign_verifies_with_coincurve_and_ids_match_hashlib():
    rng = random.Random(5)
    for i, content in enumerate(TRICKY):
        key = rng.randbytes(32)
        tags = [["t", "x\"" + str(i)], ["e", "%064x" % rng.getrandbits(256)]][: i % 3]
        template = {"created_at": 1_700_000_000 + i, "kind": [0, 1, 7, 30023][i % 4], "tags": tags, "content": content}
        for form in (template, json.dumps(template), json.dumps(template).encode()):
            ev = json.loads(nostr.sign(form, key))
            assert ev["pubkey"] == coincurve.PublicKeyXOnly.from_secret(key).format().hex()
            assert ev["id"] == oracle_id(ev)
            assert oracle_sig_ok(ev)
            assert (ev["content"], ev["tags"], ev["kind"]) == (content, tags, template["kind"])


def test_sign_uses_fresh_randomness_and_coincurve_signs_what_ito_verifies():
    template = {"created_at": 1, "kind": 1, "tags": [], "content": "same"}
    a, b = json.loads(nostr.sign(template, KEY_HEX)), json.loads(nostr.sign(template, KEY_HEX))
    assert a["id"] == b["id"] and a["sig"] != b["sig"]
    # coincurve's signature over the same id verifies with ito.
    theirs = dict(a, sig=coincurve.PrivateKey(bytes.fromhex(KEY_HEX)).sign_schnorr(bytes.fromhex(a["id"]), os.urandom(32)).hex())
    assert nostr.verify(json.dumps(theirs))


def test_keys_in_every_form():
    pk = nostr.public_key(KEY_HEX)
    assert pk == coincurve.PublicKeyXOnly.from_secret(bytes.fromhex(KEY_HEX)).format().hex()
    assert nostr.public_key(bytes.fromhex(KEY_HEX)) == pk
    assert nostr.public_key(KEY_HEX.upper()) == pk
    nsec = nip19.encode("nsec", bytes.fromhex(KEY_HEX))
    assert nostr.public_key(nsec) == pk
    key = nostr.generate_secret_key()
    assert isinstance(key, bytes) and len(key) == 32 and key != nostr.generate_secret_key()
    assert nostr.public_key(key) == coincurve.PublicKeyXOnly.from_secret(key).format().hex()


@pytest.mark.parametrize(
    "bad, message",
    [
        (b"\x01" * 31, "a secret key is 64 hex digits, found 31 characters"),
        (bytes(32), "secret key: zero or not below the secp256k1 group order"),
        (KEY_HEX[:-1] + "g", "secret key: not a hex digit at byte 63"),
        ("nsec1" + KEY_HEX[:40], "secret key: "),
    ],
)
def test_bad_keys_raise_without_showing_the_key(bad, message):
    with pytest.raises(ito_codecs.Error) as info:
        nostr.public_key(bad)
    text = str(info.value)
    assert text.startswith(message)
    assert KEY_HEX[:8] not in text and KEY_HEX[20:28] not in text
    with pytest.raises(TypeError):
        nostr.public_key(12345)


def test_bad_templates_raise_with_offset_and_field():
    with pytest.raises(ito_codecs.Error) as info:
        nostr.sign('{"created_at":1,"kind":1,"tags":[[1]],"content":""}', KEY_HEX)
    assert (info.value.offset, info.value.field) == (34, "tags")
    with pytest.raises(ito_codecs.Error) as info:
        nostr.sign({"created_at": 1, "kind": 1, "tags": []}, KEY_HEX)
    assert info.value.field == "content"
    with pytest.raises(OverflowError):
        nostr.sign({"created_at": 1, "kind": 70000, "tags": [], "content": ""}, KEY_HEX)
    with pytest.raises(TypeError):
        nostr.sign({"created_at": 1, "kind": 1, "tags": [[1]], "content": ""}, KEY_HEX)
    # Every prefix of a template is an error, never a crash.
    doc = '{"created_at":1,"kind":1,"tags":[["t","x"]],"content":"caf\\u00e9"}'
    for cut in range(len(doc)):
        with pytest.raises(ito_codecs.Error):
            nostr.sign(doc[:cut], KEY_HEX)


NIP19_NPROFILE = (
    "nprofile1qqsrhuxx8l9ex335q7he0f09aej04zpazpl0ne2cgukyawd24mayt8gpp4mhxue69uhhytnc9e3k7mgpz4mhxue69uhkg6nzv9ejuumpv34kytnrdaksjlyr9p"
)


def test_nip19_examples():
    # From NIP-19 itself.
    assert nip19.decode("npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg") == {
        "type": "npub",
        "data": "7e7e9c42a91bfef19fa929e5fda1b72e0ebc1a4c1141673e2794234d86addf4e",
    }
    nsec = nip19.decode("nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5")
    assert nsec == {"type": "nsec", "data": bytes.fromhex("67dea2ed018072d675f5415ecfaed7d2597555e202d85b3d65ea4e58d2d92ffa")}
    profile = nip19.decode(NIP19_NPROFILE)
    assert profile["data"] == {
        "pubkey": "3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d",
        "relays": ["wss://r.x.com", "wss://djbas.sadkb.com"],
    }
    assert nip19.encode("nprofile", profile["data"]) == NIP19_NPROFILE
    assert nip19.decode(NIP19_NPROFILE.upper()) == profile
    assert nostr.nip19 is nip19


def random_pointer(rng, kind):
    relays = [f"wss://r{rng.randrange(1000)}.example/{'é' * rng.randrange(3)}" for _ in range(rng.randrange(4))]
    h = lambda: "%064x" % rng.getrandbits(256)
    if kind == "nprofile":
        return {"pubkey": h(), "relays": relays}
    if kind == "nevent":
        d = {"id": h(), "relays": relays}
        if rng.random() < 0.5:
            d["author"] = h()
        if rng.random() < 0.5:
            d["kind"] = rng.getrandbits(32)
        return d
    return {"identifier": rng.choice(["", "banana", "日本語", "x" * 200]), "pubkey": h(), "kind": rng.getrandbits(32), "relays": relays}


@pytest.mark.parametrize("kind", ["nprofile", "nevent", "naddr"])
def test_pointers_agree_with_the_reference(kind):
    rng = random.Random(kind)
    for _ in range(200):
        data = random_pointer(rng, kind)
        s = nip19.encode(kind, data)
        assert nip19.decode(s) == {"type": kind, "data": data}
        # The reference reads what we wrote...
        hrp, payload = ref_decode(s)
        tlv = ref_tlv(payload)
        assert hrp == kind
        assert [r.decode() for r in tlv.get(1, [])] == data["relays"]
        special = tlv[0][0]
        if kind == "naddr":
            assert special.decode() == data["identifier"]
            assert tlv[2][0].hex() == data["pubkey"]
            assert int.from_bytes(tlv[3][0], "big") == data["kind"]
        else:
            assert special.hex() == data.get("pubkey", data.get("id"))
        # ...and we read the reference's encoding with the types in reverse
        # order (nostr-tools' order; relays keep theirs) plus an unknown record.
        records = [bytes([t, len(v)]) + v for t in sorted(tlv, reverse=True) for v in tlv[t]]
        reordered = b"".join(records) + bytes([42, 2, 0, 0])
        assert nip19.decode(ref_encode(kind, reordered)) == {"type": kind, "data": data}


def test_fixed_types_agree_with_the_reference():
    rng = random.Random(3)
    for _ in range(200):
        raw = rng.randbytes(32)
        for kind in ("npub", "note", "nsec"):
            s = nip19.encode(kind, raw)
            assert s == ref_encode(kind, raw)
            assert ref_decode(s) == (kind, raw)
            data = nip19.decode(s)["data"]
            assert data == (raw if kind == "nsec" else raw.hex())


def test_bad_strings_raise():
    good = nip19.encode("note", bytes(32))
    for cut in range(len(good)):
        with pytest.raises(ito_codecs.Error):
            nip19.decode(good[:cut])
    for i in range(len(good)):
        for c in "qpx1B!":
            if good[i] != c:
                with pytest.raises(ito_codecs.Error):
                    nip19.decode(good[:i] + c + good[i + 1 :])
    with pytest.raises(ito_codecs.Error) as info:
        nip19.decode("note1qqqqbq")
    assert (str(info.value), info.value.offset) == ("invalid character `b` at byte 9", 9)
    with pytest.raises(ValueError):
        nip19.encode("nwhat", bytes(32))
    with pytest.raises(ito_codecs.Error):
        nip19.encode("naddr", {"identifier": "x" * 256, "pubkey": bytes(32), "kind": 1})
    with pytest.raises(TypeError):
        nip19.encode("npub", 5)
