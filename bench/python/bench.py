"""ito_codecs against the Python incumbents, as ratios measured in one
process with the contenders alternated, against the package's targets.

    pip install orjson msgspec nostr-sdk coincurve   # + ito-codecs
    python bench/python/bench.py [--rounds 7] [--events 2000]

Every figure is incumbent time / ito time (> 1: ito is faster): the ratio
of the best times over many short samples, and the median of per-round
ratios. Each round times every contender once (~10 ms each), in an order
that rotates between rounds, so load swings on a shared machine hit all
contenders alike. Results are dropped inside the timed loop (Python does
not optimise calls away). Run it two or three times for a range.

Two contenders are floors rather than peers: "coincurve sig only" is
libsecp256k1's BIP-340 check alone (key pre-parsed), which every verifier
here pays; "result.decode()" is CPython's UTF-8 decode of the finished
literal, which any `str` result pays under the limited API (abi3). The
JSON rows print ratios for both `quote_bytes` (bytes, like orjson and
msgspec) and `quote` (str).
"""

import argparse
import hashlib
import json
import os
import pathlib
import platform
import random
import statistics
import sys
import time

import coincurve
import msgspec
import nostr_sdk
import orjson

from ito_codecs import json as ij
from ito_codecs import nostr

ROOT = pathlib.Path(__file__).resolve().parents[2]
WORDS = "the nostr relay event note zap signature pubkey 日本語 émoji 😀 quote\" back\\slash line\nbreak".split(" ")


def signed_events(n, seed=2026):
    """`n` signed kind-1 events (~690 B each) as JSON str."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        secret = bytes(rng.getrandbits(8) for _ in range(32))
        pubkey = coincurve.PublicKeyXOnly.from_secret(secret).format().hex()
        content = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(20, 80)))
        tags = [["e", "%064x" % rng.getrandbits(256)], ["p", "%064x" % rng.getrandbits(256)]]
        ev = {"pubkey": pubkey, "created_at": 1_700_000_000 + i, "kind": 1, "tags": tags, "content": content}
        canon = json.dumps([0, pubkey, ev["created_at"], 1, tags, content], separators=(",", ":"), ensure_ascii=False)
        ev["id"] = hashlib.sha256(canon.encode()).hexdigest()
        ev["sig"] = coincurve.PrivateKey(secret).sign_schnorr(bytes.fromhex(ev["id"]), b"\0" * 32).hex()
        out.append(json.dumps(ev, ensure_ascii=False, separators=(",", ":")))
    return out


def twitter_text(limit=66_000):
    """Strings of twitter.json (Japanese, emoji, escapes), joined to ~66 KB."""
    strings = []

    def walk(v):
        if isinstance(v, str):
            strings.append(v)
        elif isinstance(v, dict):
            for k, x in v.items():
                strings.append(k)
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(json.loads((ROOT / "data" / "corpus" / "twitter.json").read_text()))
    text, size = [], 0
    for s in strings:
        if size >= limit:
            break
        text.append(s)
        size += len(s.encode())
    return "\n".join(text)


def per_call(f, inputs, min_time=0.2):
    """Seconds per call of f over `inputs`, looping until min_time passed."""
    loops, start = 0, time.perf_counter()
    while True:
        for x in inputs:
            f(x)
        loops += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return elapsed / (loops * len(inputs))


def compare(name, contenders, inputs, rounds, target, ito=("ito",), sample_time=0.01):
    """Times each contender in many short samples, alternated (the order
    rotates every round), so that load swings hit every contender alike.
    Prints the best time of each and, against each contender named in
    `ito`, the ratio of best times and the median of the per-round
    ratios."""
    if isinstance(ito, str):
        ito = (ito,)
    times = {c: [] for c in contenders}
    order = list(contenders)
    for r in range(rounds):
        for c in order[r % len(order):] + order[: r % len(order)]:
            times[c].append(per_call(contenders[c], inputs, sample_time))
    best = {c: min(t) for c, t in times.items()}
    print(f"\n{name}  (target: {target})")
    for c, t in best.items():
        print(f"  {c:<28} {fmt(t)} per call (best of {rounds} samples)")
    rows = []
    for mine in ito:
        for c in contenders:
            if c in ito:
                continue
            per_round = statistics.median(p / q for p, q in zip(times[c], times[mine]))
            rows.append((c, mine, best[c] / best[mine], per_round))
            print(f"  {c:>28} / {mine}: {best[c] / best[mine]:.2f} (best times), {per_round:.2f} (median of rounds)")
    return rows


def fmt(seconds):
    if seconds < 1e-6:
        return f"{seconds * 1e9:8.1f} ns"
    if seconds < 1e-3:
        return f"{seconds * 1e6:8.2f} µs"
    return f"{seconds * 1e3:8.2f} ms"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=60)
    ap.add_argument("--events", type=int, default=2000)
    args = ap.parse_args()

    print(f"date {time.strftime('%Y-%m-%d %H:%M')} | python {platform.python_version()} | "
          f"cpus {os.cpu_count()} | load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    events = signed_events(args.events)
    events_b = [e.encode() for e in events]
    print(f"{len(events)} signed kind-1 events, mean {sum(map(len, events_b)) / len(events_b):.0f} B")
    assert all(nostr.verify_all(events))
    assert all(nostr_sdk.Event.from_json(e).verify() for e in events[:50])

    def sdk_verify(e):
        return nostr_sdk.Event.from_json(e).verify()

    # The floor of any verifier: libsecp256k1's BIP-340 check alone (what
    # ito and nostr-sdk both call), through coincurve with the public key
    # already parsed (so without its square root) and the id given.
    parsed = {}
    for e in events:
        d = json.loads(e)
        parsed[e] = (coincurve.PublicKeyXOnly(bytes.fromhex(d["pubkey"])), bytes.fromhex(d["sig"]),
                     bytes.fromhex(d["id"]))

    def signature_only(e):
        key, sig, msg = parsed[e]
        return key.verify(sig, msg)

    compare("verify per event (parse + id + signature), str input",
            {"ito": nostr.verify, "nostr-sdk": sdk_verify, "coincurve sig only (floor)": signature_only},
            events, args.rounds, ">= 4x nostr-sdk")

    def orjson_verify_id(e):
        d = orjson.loads(e)
        canon = orjson.dumps([0, d["pubkey"], d["created_at"], d["kind"], d["tags"], d["content"]])
        return hashlib.sha256(canon).hexdigest() == d["id"]

    assert all(orjson_verify_id(e) for e in events_b)
    compare("verify_id per event, bytes input",
            {"ito": nostr.verify_id, "orjson+hashlib": orjson_verify_id}, events_b, args.rounds,
            ">= 2x orjson + hashlib")

    batch = [events]  # one call = the whole batch (~50-200 ms): fewer rounds
    compare(f"batch verify of {len(events)} events: global pool ({os.cpu_count()} cores) vs threads=1",
            {"ito": lambda ev: nostr.verify_all(ev), "single-thread batch": lambda ev: nostr.verify_all(ev, threads=1)},
            batch, max(6, args.rounds // 6), ">= 1.8x the single-thread batch on 2 cores", sample_time=0.0)

    # Filters: one filter against one event's JSON (ito parses the event
    # each call; nostr-sdk's Filter.match_event takes a parsed Event, so it
    # is timed both with its parse and without), and 1,000 subscriptions
    # against one event: ito's FilterIndex against a loop of match_event.
    rng = random.Random(38)
    ds = [json.loads(e) for e in events]
    one = {"kinds": [1], "authors": [ds[i]["pubkey"] for i in range(0, 40, 4)], "since": 1_700_000_000}
    ours_f = nostr.Filter(one)
    sdk_f = nostr_sdk.Filter.from_json(json.dumps(one))
    sdk_events = {e: nostr_sdk.Event.from_json(e) for e in events}
    assert [ours_f.matches(e) for e in events] == [sdk_f.match_event(sdk_events[e]) for e in events]
    compare("Filter.matches, one filter (10 authors, kinds, since) on one event",
            {"ito": ours_f.matches,
             "nostr-sdk from_json + match_event": lambda e: sdk_f.match_event(nostr_sdk.Event.from_json(e)),
             "nostr-sdk match_event (parsed)": lambda e: sdk_f.match_event(sdk_events[e])},
            events, args.rounds, ">= 1x nostr-sdk")

    def random_sub():
        d = rng.choice(ds)
        pick = rng.random()
        if pick < 0.4:
            return {"authors": [rng.choice(ds)["pubkey"] for _ in range(rng.randrange(1, 4))]}
        if pick < 0.7:
            return {"kinds": [rng.randrange(0, 10)], "#p": [d["tags"][1][1]]}
        return {"#e": [d["tags"][0][1]], "since": d["created_at"] - 5}

    subs = [[random_sub() for _ in range(rng.randrange(1, 4))] for _ in range(1000)]
    index = nostr.FilterIndex()
    for i, fs in enumerate(subs):
        index.add(f"s{i}", fs)
    sdk_subs = [(f"s{i}", [nostr_sdk.Filter.from_json(json.dumps(f)) for f in fs]) for i, fs in enumerate(subs)]

    def sdk_loop(e):
        ev = sdk_events[e]
        return [sid for sid, fs in sdk_subs if any(f.match_event(ev) for f in fs)]

    assert [index.matches(e) for e in events[:200]] == [sdk_loop(e) for e in events[:200]]
    compare("FilterIndex.matches, 1,000 subscriptions (1-3 filters each), one event",
            {"ito": index.matches, "nostr-sdk match_event loop (parsed)": sdk_loop},
            events[:200], max(6, args.rounds // 6), ">= 10x a loop of match_event")

    short = ["0123456789abcdef"[i % 16:] + "0123456789abcdef"[: i % 16] for i in range(64)]
    assert all(len(s) == 16 for s in short)
    mixed = [twitter_text()]
    ascii64 = [("abcdefghijklmnopqrstuvwxyz012345" * 2048)]
    for s in short + mixed + ascii64:
        assert ij.quote_bytes(s) == orjson.dumps(s) == msgspec.json.encode(s)
    enc = msgspec.json.encode
    print(f"\nmixed text: {len(mixed[0].encode())} B, {sum(c in chr(10) + chr(34) + chr(92) for c in mixed[0])} escapes")
    # `json.quote` returns a str; under the limited API (abi3) the only way
    # to build a non-ASCII str is CPython's UTF-8 decoder, so the decode of
    # the finished result is shown as that floor.
    quoted = {s: ij.quote_bytes(s) for s in mixed + ascii64}

    def decode_floor(s):
        return quoted[s].decode()

    for label, inputs in (("16 B ASCII", short), ("mixed text ~66 KB", mixed), ("64 KiB ASCII", ascii64)):
        contenders = {"ito": ij.quote_bytes, "ito quote (str out)": ij.quote, "orjson": orjson.dumps, "msgspec": enc}
        if inputs is not short:  # at 16 B the lookup in `quoted` would dominate
            contenders["result.decode() (str floor)"] = decode_floor
        compare(f"json.quote_bytes (bytes out, like the peers) and json.quote (str out), {label}",
                contenders, inputs, args.rounds, ">= 1.0x orjson and msgspec", ito=("ito", "ito quote (str out)"))
    print(f"\nload at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    sys.exit(main())
