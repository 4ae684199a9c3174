#!/usr/bin/env python3
"""Print criterion's latest estimates as one table per benchmark group.

Usage: python3 bench/summarize.py [target/criterion]

For each group it lists every function with its median time and, when the
benchmark declared a throughput, bytes (or elements) per second; then the
ratio of each peer to ito's best entry in the same group, which is what
bench/RESULTS.md records.
"""
import json
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "target/criterion"
groups = {}
for dirpath, dirnames, filenames in os.walk(root):
    if os.path.basename(dirpath) != "new" or "benchmark.json" not in filenames:
        continue
    with open(os.path.join(dirpath, "benchmark.json")) as f:
        bench = json.load(f)
    with open(os.path.join(dirpath, "estimates.json")) as f:
        est = json.load(f)
    name = bench["function_id"] or ""
    if bench.get("value_str"):
        name = f"{name}/{bench['value_str']}" if name else bench["value_str"]
    groups.setdefault(bench["group_id"], []).append(
        (name, est["median"]["point_estimate"], bench.get("throughput"))
    )


def rate(ns, throughput):
    if not throughput:
        return ""
    kind, amount = next(iter(throughput.items()))
    per_sec = amount / (ns / 1e9)
    if kind.startswith("Bytes"):
        return f"{per_sec / 1e9:.2f} GB/s" if per_sec >= 1e9 else f"{per_sec / 1e6:.1f} MB/s"
    return f"{per_sec / 1e6:.2f} Melem/s"


def fmt_ns(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.2f} {unit}"
    return f"{ns:.1f} ns"


for group in sorted(groups):
    rows = sorted(groups[group])
    print(f"\n## {group}")
    for name, ns, tp in rows:
        print(f"  {name:40} {fmt_ns(ns):>12} {rate(ns, tp):>14}")
