"""ito_codecs.nostr single-event functions against hashlib/json/coincurve."""

import json

import pytest

import ito_codecs
from ito_codecs import nostr

from conftest import oracle_id, oracle_sig_ok, to_json


def test_real_events_match_oracles(real_events):
    for line in real_events:
        ev = json.loads(line)
        assert nostr.event_id(line) == oracle_id(ev) == ev["id"]
        assert nostr.verify_id(line) and nostr.verify(line)
        assert oracle_sig_ok(ev)
        # str input gives the same answers as bytes
        text = line.decode()
        assert nostr.event_id(text) == ev["id"]
        assert nostr.verify(text)


@pytest.mark.parametrize("style", [0, 1, 2])
def test_generated_events_every_spelling(signed_events, style):
    for ev in signed_events:
        doc = to_json(ev, style)
        assert nostr.event_id(doc) == oracle_id(ev) == ev["id"]
        assert nostr.event_id(doc.encode()) == ev["id"]
        assert nostr.verify_id(doc) is True
        assert nostr.verify(doc) is True


def test_tampering_is_detected(signed_events):
    for ev in signed_events[:20]:
        bad_content = dict(ev, content=ev["content"] + "!")
        assert nostr.event_id(json.dumps(bad_content)) == oracle_id(bad_content)
        assert nostr.verify_id(json.dumps(bad_content)) is False
        assert nostr.verify(json.dumps(bad_content)) is False
        # a flipped signature bit: id still fine, signature not
        sig = bytearray(bytes.fromhex(ev["sig"]))
        sig[len(sig) // 2] ^= 1
        bad_sig = dict(ev, sig=sig.hex())
        assert nostr.verify_id(json.dumps(bad_sig)) is True
        assert nostr.verify(json.dumps(bad_sig)) is oracle_sig_ok(bad_sig) is False
        # someone else's key
        other = dict(ev, pubkey=signed_events[-1]["pubkey"])
        other["id"] = oracle_id(other)
        assert nostr.verify_id(json.dumps(other)) is True
        assert nostr.verify(json.dumps(other)) is oracle_sig_ok(other) is False


def test_truncated_events_raise_with_offset(real_events):
    line = real_events[0]
    for cut in range(len(line)):
        with pytest.raises(ito_codecs.Error) as info:
            nostr.event_id(line[:cut])
        err = info.value
        assert isinstance(err, ValueError)
        assert 0 <= err.offset <= cut
        assert f"byte {err.offset}" in str(err)


@pytest.mark.parametrize(
    "mutate, field",
    [
        (lambda s: s.replace(b'"kind":1', b'"kind":-1'), "kind"),
        (lambda s: s.replace(b'"id":"4376c', b'"id":"4376C'), "id"),
        (lambda s: s.replace(b'"id":"4376', b'"id":"zz76'), "id"),
        (lambda s: s.replace(b'"kind":1', b'"kind":65536'), "kind"),
        (lambda s: s.replace(b"Walled", b"Wall\xffd"), "content"),
        (lambda s: s.replace(b"Walled", b"Wall\x01d"), "content"),
        (lambda s: s + b"x", None),
        (lambda s: s.replace(b'"created_at":1673347337,', b""), "created_at"),
        (lambda s: s.replace(b'"sig":"', b'"sig":"0'), "sig"),
        (lambda s: s.replace(b'"tags":[[', b'"tags":[[1,'), "tags"),
        (lambda s: s.replace(b'"content":', b'"content":5,"x":'), "content"),
    ],
)
def test_hostile_events(real_events, mutate, field):
    line = mutate(real_events[0])
    for f in (nostr.event_id, nostr.verify_id, nostr.verify):
        with pytest.raises(ito_codecs.Error) as info:
            f(line)
        assert info.value.field == field
        assert 0 <= info.value.offset <= len(line)


def test_error_offset_points_at_the_bad_byte(real_events):
    line = real_events[0]
    at = line.index(b"Walled") + 4
    bad = line[:at] + b"\xff" + line[at + 1 :]
    with pytest.raises(ito_codecs.Error) as info:
        nostr.verify(bad)
    assert info.value.offset == at
    assert info.value.field == "content"


def test_huge_event(signed_events):
    from conftest import sign

    ev = sign(b"\x05" * 32, 1, 1, [["t", "x"]] * 1000, "é\n" * 2_000_000)
    doc = json.dumps(ev)
    assert len(doc) > 8_000_000
    assert nostr.event_id(doc) == ev["id"]
    assert nostr.verify(doc)
    with pytest.raises(ito_codecs.Error):
        nostr.verify(doc[:-1])


def test_deep_nesting_is_an_error_not_a_crash():
    doc = '{"x":' + "[" * 100_000 + "]" * 100_000 + "}"
    with pytest.raises(ito_codecs.Error) as info:
        nostr.event_id(doc)
    assert "deep" in str(info.value)


def test_wrong_types():
    for bad in (None, 1, ["{}"], bytearray(b"{}")):
        with pytest.raises(TypeError):
            nostr.event_id(bad)
    with pytest.raises(UnicodeEncodeError):
        nostr.event_id('{"content":"\ud800"}')
