#!/usr/bin/env python3
"""Scores the choices recorded in `tss eval --json` reports against other
timings of the same instances: each method's pick (the config whose stored
time its score carries; for a search of k measurements, the fastest of its k
by the stored times) looked up in `--times`, a test CSV that timed the same
kernels at the same sizes again (e.g. by a later harness), against the
fastest config of that CSV. An independent timing judges each choice, so
neither the choice's luck nor the reference's is counted twice. Nothing is
trained or timed here.

  scripts/rescore_times.py REPORT.json [...] --times TEST.csv

Prints, over the instances both hold, every method's geometric-mean TN as
reported and as rescored, and how the reported best config fares.
"""
import argparse
import csv
import json
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from leave_family_out import geo  # noqa: E402

KS = (1, 4, 8, 16, 32)


def picks(inst):
    """Method -> tile the report's scores stand for (by their stored time)."""
    cands = inst["candidates"]
    by_time = defaultdict(list)
    for tile, t, _ in cands:
        by_time[t].append(tile)
    out = {}
    for m, s in inst["scores"].items():
        tiles = by_time.get(s["time"], [])
        if len(tiles) == 1 and m != "T6-Random":
            out[m] = tiles[0]
    order = inst.get("search_order") or []
    for k in KS:
        if len(order) >= 1:
            out[f"diverse {k}"] = [cands[j][0] for j in order[:k]]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("reports", nargs="+")
    ap.add_argument("--times", required=True, help="test CSV timing the same instances again")
    args = ap.parse_args()
    again = defaultdict(dict)
    with open(args.times) as f:
        for r in csv.DictReader(f):
            if r["status"] == "ok" and r["time_median"]:
                again[(r["kernel"], r["sizes"])][r["tile"]] = float(r["time_median"])
    before, after = defaultdict(list), defaultdict(list)
    n = 0
    for path in args.reports:
        for inst in json.load(open(path))["instances"]:
            t3 = again.get((inst["kernel"], inst["sizes"]))
            stored = {c[0]: c[1] for c in inst["candidates"]}
            if not t3 or len(inst["candidates"]) < 2:
                continue
            common = [t for t in stored if t in t3]
            if len(common) < 0.9 * len(stored):
                continue
            n += 1
            best2 = min(stored[t] for t in common)
            best3 = min(t3[t] for t in common)
            for m, tile in picks(inst).items():
                tiles = tile if isinstance(tile, list) else [tile]
                tiles = [t for t in tiles if t in t3]
                if not tiles:
                    continue
                # A measuring search keeps what its own timings say is
                # fastest, and the other timings judge that choice.
                chosen = min(tiles, key=lambda t: stored[t])
                before[m].append(stored[chosen] / best2)
                after[m].append(t3[chosen] / best3)
            top = min(common, key=stored.get)
            before["stored best"].append(1.0)
            after["stored best"].append(t3[top] / best3)
    print(f"{n} instances timed in both")
    print("| method | TN as reported | TN rescored | instances |")
    print("|---|---|---|---|")
    for m in sorted((m for m in before if m != "best"), key=lambda m: geo(after[m])):
        print(f"| {m} | {geo(before[m]):.3f} | {geo(after[m]):.3f} | {len(after[m])} |")


if __name__ == "__main__":
    main()
