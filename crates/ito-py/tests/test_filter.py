"""Filter, FilterIndex and filter_jsonl against rust-nostr's Python package
(``nostr-sdk``: ``Filter.match_event``), the oracle the relay-protocol tests
use in Rust, on random filters over real and freshly signed events."""

import json
import random

import nostr_sdk
import pytest

import ito_codecs
from ito_codecs import nostr

from conftest import EVENTS_JSONL, make_events


@pytest.fixture(scope="module")
def events(real_events):
    rng = random.Random(38)
    out = [json.loads(line) for line in real_events] + make_events(80, seed=38)
    # Tags a filter can name: single letters, repeated values, a value
    # that is some other event's id.
    for i, ev in enumerate(out[9:]):
        ev["tags"] = ev["tags"] + [["p", out[i % 9]["pubkey"]], ["t", rng.choice(["a", "b", "é😀"])]]
    return [json.dumps(ev, ensure_ascii=False, separators=(",", ":")) for ev in out]


def random_filter(rng, parsed):
    pick = rng.choice
    e = pick(parsed)
    f = {}
    if rng.random() < 0.3:
        f["kinds"] = [pick(parsed)["kind"], rng.randrange(0, 10)]
    if rng.random() < 0.3:
        f["authors"] = [e["pubkey"]] + [pick(parsed)["pubkey"] for _ in range(rng.randrange(0, 12))]
    if rng.random() < 0.15:
        f["ids"] = [e["id"], pick(parsed)["id"]]
    if rng.random() < 0.25:
        f["since"] = e["created_at"] - rng.randrange(0, 3)
    if rng.random() < 0.25:
        f["until"] = e["created_at"] + rng.randrange(0, 3)
    tag = next((t for t in e["tags"] if len(t) > 1 and len(t[0]) == 1), None)
    if tag and rng.random() < 0.5:
        f["#" + tag[0]] = [tag[1], "00" * 32]
    if rng.random() < 0.1:
        f["limit"] = rng.randrange(0, 5)
    return f


def oracle_matches(filter_json, event_json):
    return nostr_sdk.Filter.from_json(filter_json).match_event(nostr_sdk.Event.from_json(event_json))


def test_filter_matches_as_rust_nostr(events):
    rng = random.Random(1)
    parsed = [json.loads(e) for e in events]
    agree = 0
    for _ in range(300):
        f = random_filter(rng, parsed)
        text = json.dumps(f, ensure_ascii=False)
        ours = nostr.Filter(f)
        assert nostr.Filter(text).json == text
        for ev in events:
            want = oracle_matches(text, ev)
            assert ours.matches(ev) == want, (text, ev)
            assert ours.matches(ev.encode()) == want
            agree += want
    assert agree > 300, "the filters do match some events"


def test_index_and_filter_jsonl_agree_with_rust_nostr(events):
    rng = random.Random(2)
    parsed = [json.loads(e) for e in events]
    index = nostr.FilterIndex()
    subs = {}
    for i in range(200):
        filters = [random_filter(rng, parsed) for _ in range(rng.randrange(1, 4))]
        sub_id = "s%d" % (i % 150)  # some ids are reopened: replaced
        form = rng.choice(["list", "json", "objects"])
        if form == "json":
            index.add(sub_id, json.dumps(filters))
        elif form == "objects":
            index.add(sub_id, [nostr.Filter(f) for f in filters])
        else:
            index.add(sub_id, filters)
        subs.pop(sub_id, None)
        subs[sub_id] = [json.dumps(f) for f in filters]
        if rng.random() < 0.1:
            victim = "s%d" % rng.randrange(0, 150)
            assert index.remove(victim) == (victim in subs)
            subs.pop(victim, None)
    assert len(index) == len(subs)
    order = {s: n for n, s in enumerate(subs)}  # opening order
    for ev in events:
        want = [s for s, fs in subs.items() if any(oracle_matches(f, ev) for f in fs)]
        assert index.matches(ev) == sorted(want, key=order.get)

    # filter_jsonl: the matching lines, in order, of the input's type.
    req = [random_filter(rng, parsed) for _ in range(3)]
    texts = [json.dumps(f) for f in req]
    want = [e for e in events if any(oracle_matches(t, e) for t in texts)]
    data = "\n".join(events) + "\n\n"
    assert nostr.filter_jsonl(data, req) == want
    assert nostr.filter_jsonl(data.encode(), req, threads=2) == [w.encode() for w in want]
    assert nostr.filter_jsonl(data.replace("\n", "\r\n").encode(), req) == [w.encode() for w in want]
    assert nostr.filter_jsonl(data, []) == []


def test_errors_name_the_offset():
    with pytest.raises(ito_codecs.Error) as e:
        nostr.Filter('{"kinds": [1, "x"]}')
    assert e.value.offset == 14
    with pytest.raises(ito_codecs.Error):
        nostr.Filter('{"ids": ["ABCD"]}')  # upper-case hex
    with pytest.raises(TypeError):
        nostr.Filter(5)
    index = nostr.FilterIndex()
    index.add("keep", {"kinds": [1]})
    with pytest.raises(ito_codecs.Error):
        index.add("keep", [{"kinds": [1]}, '{"until": -1}'])
    assert "keep" in index and len(index) == 1  # unchanged
    with pytest.raises(ValueError):
        index.add("none", [])
    good = EVENTS_JSONL.read_bytes().splitlines(keepends=True)[0]
    data = good + good + b'{"kind": 1}\n'
    with pytest.raises(ito_codecs.Error) as e:
        nostr.filter_jsonl(data, {"kinds": [1]})
    assert "line 3" in str(e.value)
    assert e.value.offset > 2 * len(good)
