"""Verify a Nostr JSONL archive with Dask: each partition (a line-aligned
block of bytes) is checked by ``ito_codecs.nostr.verify_jsonl``, which
releases the GIL and uses every core of the worker.

    python verify_archive_dask.py 'archive/*.jsonl'                 # this machine
    python verify_archive_dask.py 'archive/*.jsonl' --scheduler tcp://host:8786

See README.md for running it on a Dask cluster.
"""

import argparse
import sys

import dask
import dask.bag as db
from dask.bytes import read_bytes

from ito_codecs import nostr


def verify_block(path, block_index, block, check="signature"):
    """Checks one partition; returns its counts and its failing events."""
    counts = {"events": 0, "ok": 0, "bad_id": 0, "bad_signature": 0, "invalid": 0}
    bad = []
    for line, verdict in nostr.verify_jsonl(block, check=check):
        counts["events"] += 1
        counts[verdict.status] += 1
        if not verdict.ok:
            bad.append(
                {
                    "path": path,
                    "block": block_index,
                    "line_in_block": line,
                    "status": verdict.status,
                    "message": verdict.message,
                }
            )
    return [dict(counts, bad=bad)]


def merge(a, b):
    """Adds two partition reports."""
    out = {k: a[k] + b[k] for k in ("events", "ok", "bad_id", "bad_signature", "invalid")}
    out["bad"] = a["bad"] + b["bad"]
    return out


def verify_archive(urlpath, blocksize="64 MiB", check="signature", storage_options=None):
    """A bag with one report per partition, over every file matching
    ``urlpath`` (a path, a glob, a list, or any fsspec URL such as
    ``s3://bucket/archive/*.jsonl``)."""
    _, blocks, paths = read_bytes(
        urlpath,
        delimiter=b"\n",
        blocksize=blocksize,
        include_path=True,
        sample=False,
        **(storage_options or {}),
    )
    parts = [
        dask.delayed(verify_block)(path, i, block, check)
        for path, file_blocks in zip(paths, blocks)
        for i, block in enumerate(file_blocks)
    ]
    return db.from_delayed(parts)


def summarize(bag):
    """The partitions' reports added up (lazily)."""
    return bag.fold(merge, merge, initial=merge_identity())


def merge_identity():
    return {"events": 0, "ok": 0, "bad_id": 0, "bad_signature": 0, "invalid": 0, "bad": []}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("urlpath", nargs="+", help="JSONL files, globs or fsspec URLs")
    ap.add_argument("--blocksize", default="64 MiB", help="bytes per partition (default 64 MiB)")
    ap.add_argument("--check", choices=["signature", "id"], default="signature")
    ap.add_argument("--scheduler", help="address of a Dask scheduler (default: threads on this machine)")
    ap.add_argument("--show", type=int, default=20, help="failing events to print")
    args = ap.parse_args(argv)

    report = summarize(verify_archive(args.urlpath, args.blocksize, args.check))
    if args.scheduler:
        from dask.distributed import Client

        with Client(args.scheduler):
            result = report.compute()
    else:
        # Threads suffice: verify_jsonl releases the GIL.
        result = report.compute(scheduler="threads")

    for b in result["bad"][: args.show]:
        print(f"{b['path']} block {b['block']} line {b['line_in_block']}: {b['status']}"
              + (f" ({b['message']})" if b["message"] else ""))
    print(
        f"{result['events']} events: {result['ok']} ok, {result['bad_id']} bad id, "
        f"{result['bad_signature']} bad signature, {result['invalid']} invalid"
    )
    return 0 if result["ok"] == result["events"] else 1


if __name__ == "__main__":
    sys.exit(main())
