"""Batch forms: same answers as the single-event forms, in input order,
no exception for a bad event, the GIL released, bounded-memory streaming."""

import json
import threading
import time

import pytest

import ito_codecs
from ito_codecs import nostr

from conftest import make_events, oracle_id, oracle_sig_ok


def mixed_lines(n=120):
    """Good events, tampered ones and garbage, interleaved."""
    events = make_events(n, seed=11)
    lines = []
    for i, ev in enumerate(events):
        kind = i % 6
        if kind == 1:
            ev = dict(ev, content=ev["content"] + "x")  # bad id
        elif kind == 2:
            sig = bytearray(bytes.fromhex(ev["sig"]))
            sig[5] ^= 0x40
            ev = dict(ev, sig=sig.hex())  # bad signature
        line = json.dumps(ev, ensure_ascii=i % 2 == 0).encode()
        if kind == 3:
            line = line[: len(line) // 2]  # truncated
        elif kind == 4 and i % 4 == 0:
            line = line.replace(b'"kind"', b'"kind\xff"')  # invalid UTF-8
        lines.append(line)
    return lines


def single(line, check):
    """What the single-event functions say about one line, as a status."""
    try:
        if not nostr.verify_id(line):
            return "bad_id"
        if check == "signature" and not nostr.verify(line):
            return "bad_signature"
        return "ok"
    except ito_codecs.Error as e:
        return ("invalid", e.offset, e.field, str(e))


def status(v):
    return v.status if v.status != "invalid" else ("invalid", v.offset, v.field, v.message)


@pytest.mark.parametrize("check", ["signature", "id"])
def test_batch_equals_single(check):
    lines = mixed_lines()
    want = [single(line, check) for line in lines]
    assert len(set(w if isinstance(w, str) else "invalid" for w in want)) == (4 if check == "signature" else 3)
    assert [status(nostr.verdict(line, check=check)) for line in lines] == want
    for threads in (None, 1, 2, 3):
        got = nostr.verify_all(lines, check=check, threads=threads)
        assert [status(v) for v in got] == want
    # str elements and a tuple work too
    assert [status(v) for v in nostr.verify_all(tuple(l.decode("utf-8", "replace") for l in lines[:12]), check=check)] == [
        single(l.decode("utf-8", "replace"), check) for l in lines[:12]
    ]


def test_batch_agrees_with_oracles():
    events = make_events(80, seed=99)
    lines = [json.dumps(ev) for ev in events]
    verdicts = nostr.verify_all(lines)
    for ev, v in zip(events, verdicts):
        assert oracle_id(ev) == ev["id"] and oracle_sig_ok(ev)
        assert v.ok and bool(v) and v.status == "ok"


@pytest.mark.parametrize("check", ["signature", "id"])
def test_jsonl_and_file_equal_single(tmp_path, check):
    lines = mixed_lines()
    # blank lines, whitespace-only lines and CRLF in between
    data = b"\n".join(l + (b"\r" if i % 5 == 0 else b"") + (b"\n  " if i % 7 == 0 else b"") for i, l in enumerate(lines)) + b"\n"
    physical = data.split(b"\n")
    # The batch sees each physical line as is (a trailing \r included).
    want = [(n + 1, single(line, check)) for n, line in enumerate(physical) if line.strip()]
    got = nostr.verify_jsonl(data, check=check)
    assert [(n, status(v)) for n, v in got] == want
    assert [(n, status(v)) for n, v in nostr.verify_jsonl(data.decode("utf-8", "replace"), check=check)] == [
        (n, status(nostr.verdict(physical[n - 1].decode("utf-8", "replace"), check=check))) for n, _ in got
    ]
    path = tmp_path / "events.jsonl"
    path.write_bytes(data)
    bad = []
    summary = nostr.verify_file(str(path), check=check, on_bad=lambda n, line, v: bad.append((n, line, status(v))))
    assert bad == [(n, physical[n - 1], status(v)) for n, v in got if not v.ok]
    assert summary.events == len(got)
    assert summary.ok == sum(v.ok for _, v in got)
    assert summary.failed == len(bad)
    assert summary.bad_id == sum(v.status == "bad_id" for _, v in got)
    assert summary.bad_signature == sum(v.status == "bad_signature" for _, v in got)
    assert summary.invalid == sum(v.status == "invalid" for _, v in got)
    assert summary.bytes == len(data)
    assert summary.lines == len(physical) - 1


def test_file_callback_exception_stops_the_run(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b"{}\n" * 1000)
    seen = []

    def on_bad(n, line, v):
        seen.append(n)
        if n == 3:
            raise KeyError("stop")

    with pytest.raises(KeyError):
        nostr.verify_file(path, on_bad=on_bad)
    assert seen == [1, 2, 3]


def test_file_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        nostr.verify_file(tmp_path / "missing.jsonl")
    with pytest.raises(OSError):
        nostr.verify_file(tmp_path)  # a directory
    with pytest.raises(ValueError, match="check"):
        nostr.verify_file(tmp_path / "x", check="sig")


def test_file_streams_large_archive_in_bounded_memory(tmp_path):
    import resource

    line = json.dumps(make_events(1, seed=5)[0]).encode() + b"\n"
    path = tmp_path / "big.jsonl"
    with open(path, "wb") as f:
        for _ in range(40):
            f.write(line * 2500)  # 100k events, ~50 MB
    size = path.stat().st_size
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    summary = nostr.verify_file(path, check="id")
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before
    assert summary.events == summary.ok == 100_000
    assert summary.bytes == size
    assert grown < size / 2, f"peak RSS grew by {grown} bytes for a {size}-byte file"


def test_one_huge_line_and_garbage(tmp_path):
    huge = b'{"content":"' + b"x" * 10_000_000 + b'"}'
    got = nostr.verify_jsonl(b"\xff\xfe\n" + huge + b"\n[]\n{\n")
    assert [(n, v.status) for n, v in got] == [(1, "invalid"), (2, "invalid"), (3, "invalid"), (4, "invalid")]
    assert got[0][1].offset == 0
    assert got[1][1].field is not None or "missing" in got[1][1].message
    assert got[3][1].offset == 1


def test_empty_and_bad_arguments():
    assert nostr.verify_all([]) == []
    assert nostr.verify_jsonl(b"") == []
    assert nostr.verify_jsonl("\n \n") == []
    with pytest.raises(TypeError):
        nostr.verify_all([b"{}", None])
    with pytest.raises(TypeError):
        nostr.verify_all(5)
    with pytest.raises(ValueError, match="check"):
        nostr.verify_all([], check="nope")
    with pytest.raises(ValueError, match="threads"):
        nostr.verify_all([], threads=0)
    v = nostr.verdict(b"{}")
    assert not v and v.status == "invalid" and v.offset == 1 and "missing" in v.message
    assert nostr.verdict(b"{}") == nostr.verdict(b"{}")
    assert repr(nostr.verify_all([b"{}"])[0]).startswith("Verdict('invalid'")


def run_beside_ticker(work):
    """Runs `work()` while a Python thread records the times at which it
    gets to run; returns (result, start, end, tick times)."""
    ticks = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.0005)  # gives the GIL away; we only need a few ticks

    t = threading.Thread(target=ticker)
    t.start()
    time.sleep(0.02)
    try:
        t0 = time.perf_counter()
        result = work()
        t1 = time.perf_counter()
    finally:
        stop.set()
        t.join()
    return result, t0, t1, ticks


@pytest.mark.parametrize("threads", [None, 1])
def test_gil_released_during_batch(threads, tmp_path):
    """A Python thread keeps running while a batch verifies. With the GIL
    held for the whole call, the thread could only run before and after
    it (Python switches threads between bytecodes, and the caller runs
    none until the call returns), so no tick would land in its middle."""
    events = [json.dumps(ev) for ev in make_events(40, seed=3)] * 25  # 1000 signatures
    data = "\n".join(events).encode()
    path = tmp_path / "a.jsonl"
    path.write_bytes(data)
    for work in (
        lambda: nostr.verify_all(events, threads=threads),
        lambda: nostr.verify_jsonl(data, threads=threads),
        lambda: [nostr.verify_file(path)],
    ):
        result, t0, t1, ticks = run_beside_ticker(work)
        assert all(result)
        span = t1 - t0
        middle = [t for t in ticks if t0 + span / 4 < t < t1 - span / 4]
        assert middle, f"no tick in the middle half of a {span * 1000:.0f} ms batch"
