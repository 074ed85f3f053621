#!/usr/bin/env python3
"""Summarises the datasets in data/: rows, instances per kernel, statuses,
collection wall time (sum of gaps under 5 minutes between consecutive rows,
so pauses between sessions do not count) and rows per hour. Prints markdown."""
import csv
import collections
import glob
import os
import sys

def main(paths):
    print("| file | rows | instances per kernel | statuses | wall time | rows/hour | kernel time / wall |")
    print("|---|---|---|---|---|---|---|")
    for p in paths:
        rows = list(csv.DictReader(open(p)))
        if not rows:
            continue
        inst = collections.defaultdict(set)
        for r in rows:
            inst[r["kernel"]].add(r["instance"])
        counts = sorted({len(v) for v in inst.values()})
        per_kernel = "-".join(str(c) for c in (counts[0], counts[-1])) if len(counts) > 1 else str(counts[0])
        status = collections.Counter(r["status"] for r in rows)
        t = sorted(int(r["unix_time"]) for r in rows)
        wall = sum(b - a for a, b in zip(t, t[1:]) if b - a < 300)
        kernel = 0.0
        for r in rows:
            if r["time_median"]:
                kernel += float(r["time_median"]) * int(r["reps"] or 1)
        rate = len(rows) / (wall / 3600) if wall else 0
        st = ", ".join(f"{k} {v}" for k, v in sorted(status.items()))
        ratio = f"{kernel / wall:.2f}" if wall else "-"
        print(f"| `{os.path.join(os.path.basename(os.path.dirname(p)), os.path.basename(p))}` | {len(rows)} | {per_kernel} ({len(inst)} kernels) | {st} | {wall / 3600:.2f} h | {rate:.0f} | {ratio} |")

if __name__ == "__main__":
    main(sys.argv[1:] or sorted(glob.glob(os.path.join(os.path.dirname(__file__), "..", "data", "**", "*.csv"), recursive=True)))
