"""The Dask example on a generated archive with Dask's local schedulers."""

import pathlib

import pytest

pytest.importorskip("dask.bag")

from ito_codecs import nostr

import verify_archive_dask as example

ROOT = pathlib.Path(__file__).resolve().parents[2]


def generated_archive(path, n_files=3, lines_per_file=4000):
    """Real signed events, with tampered ones, garbage and blank lines mixed
    in; returns every non-blank line written."""
    real = (ROOT / "data" / "nostr" / "events.jsonl").read_bytes().splitlines()
    written = []
    for f in range(n_files):
        out = []
        for i in range(lines_per_file):
            line = real[(i + f) % len(real)]
            if i % 97 == 5:
                line = line.replace(b'"content":"', b'"content":"!')  # bad id
            elif i % 89 == 7:
                at = line.index(b'"sig":"') + 10
                line = line[:at] + (b"0" if line[at:at + 1] != b"0" else b"1") + line[at + 1:]  # bad sig
            elif i % 83 == 3:
                line = line[: len(line) // 3]  # truncated
            elif i % 79 == 2:
                line = b"\xff not json"
            elif i % 71 == 1:
                out.append(b"   ")  # blank
                continue
            out.append(line)
            written.append(line)
        (path / f"part-{f}.jsonl").write_bytes(b"\n".join(out) + b"\n")
    return written


@pytest.mark.parametrize("scheduler", ["threads", "sync"])
def test_dask_report_equals_single_event_checks(tmp_path, scheduler):
    lines = generated_archive(tmp_path)
    want = {"events": len(lines), "ok": 0, "bad_id": 0, "bad_signature": 0, "invalid": 0}
    for line in lines:
        want[nostr.verdict(line).status] += 1
    assert all(want[k] > 0 for k in want)

    # Small blocks: many partitions per file, split mid-file on line ends.
    bag = example.verify_archive(str(tmp_path / "*.jsonl"), blocksize=64 * 1024)
    assert bag.npartitions > 6
    result = example.summarize(bag).compute(scheduler=scheduler)
    assert {k: result[k] for k in want} == want
    assert len(result["bad"]) == want["events"] - want["ok"]
    assert {b["status"] for b in result["bad"]} == {"bad_id", "bad_signature", "invalid"}


def test_command_line(tmp_path, capsys):
    n = len(generated_archive(tmp_path, n_files=1, lines_per_file=500))
    assert example.main([str(tmp_path / "*.jsonl"), "--blocksize", "16384", "--show", "2"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3 and out[-1].startswith(f"{n} events:")
    clean = tmp_path / "clean"
    clean.mkdir()
    (clean / "a.jsonl").write_bytes((ROOT / "data" / "nostr" / "events.jsonl").read_bytes())
    assert example.main([str(clean / "a.jsonl"), "--check", "id"]) == 0
