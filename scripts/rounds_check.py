#!/usr/bin/env python3
"""Does timing each candidate in several worker processes (`--rounds`) rank
candidates more reproducibly than one process? For `--instances` test
instances of a dataset, takes the `--top` fastest stored configs and
`--others` more drawn from the rest, and times them with `tss measure` twice
at each round count, the runs of the two counts alternating. Then, per
round count:

  regret   run b's time of run a's fastest config over run b's fastest (and
           the other way round): what picking by one run costs when judged
           by an independent one; 1.0 when the two agree on the best
  scatter  the standard deviation of log(t_a / t_b) over an instance's
           configs after removing the instance's mean: the noise that can
           reorder configs (a shift of every config cancels in TN)

Objects are cached by content hash, so only the first run of an instance
compiles. Run on a quiet machine, on the machine the rows were measured on:

  scripts/rounds_check.py TEST.csv [--instances 16] [--top 8] [--others 4] [--rounds 1,3] [--seed 1]
"""
import argparse
import csv
import math
import os
import random
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from leave_family_out import ROOT, geo  # noqa: E402
from remeasure import kernel_file, measure  # noqa: E402


def regret(a, b):
    """Both directions: b's time of a's best over b's best, and vice versa."""
    ia, ib = min(range(len(a)), key=a.__getitem__), min(range(len(b)), key=b.__getitem__)
    return [b[ia] / b[ib], a[ib] / a[ia]]


def scatter(a, b):
    d = [math.log(x / y) for x, y in zip(a, b)]
    m = statistics.fmean(d)
    return math.sqrt(statistics.fmean([(x - m) ** 2 for x in d]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("test", help="a test-set CSV of this machine (`tss collect --baseline` rows)")
    ap.add_argument("--instances", type=int, default=16)
    ap.add_argument("--top", type=int, default=8, help="stored-fastest configs per instance")
    ap.add_argument("--others", type=int, default=4, help="configs drawn from the rest")
    ap.add_argument("--rounds", default="1,3", help="round counts to compare, comma-separated")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tss", default=os.path.join(ROOT, "target", "release", "tss"))
    args = ap.parse_args()
    counts = [int(r) for r in args.rounds.split(",")]
    rows = defaultdict(list)
    with open(args.test) as f:
        for r in csv.DictReader(f):
            if r["status"] == "ok" and r["time_median"] and r["tile"] != "untiled":
                rows[(r["kernel"], r["sizes"])].append((float(r["time_median"]), r["tile"]))
    rng = random.Random(args.seed)
    keys = sorted(k for k, v in rows.items() if len(v) >= args.top + args.others and kernel_file(k[0]))
    rng.shuffle(keys)
    got = {c: {"regret": [], "scatter": []} for c in counts}
    print("| kernel | sizes | " + " | ".join(f"regret, {c} round(s)" for c in counts) + " |")
    print("|---|---|" + "---|" * len(counts))
    done = 0
    for kernel, sizes in keys:
        if done == args.instances:
            break
        ranked = [t for _, t in sorted(rows[(kernel, sizes)])]
        tiles = ranked[: args.top] + rng.sample(ranked[args.top :], args.others)
        src = kernel_file(kernel)
        runs = {c: [] for c in counts}
        for _ in range(2):
            for c in counts:
                runs[c].append(measure(args.tss, src, sizes, tiles, rounds=c))
        if any(r is None or None in r for rs in runs.values() for r in rs):
            continue
        done += 1
        cells = []
        for c in counts:
            a, b = runs[c]
            got[c]["regret"] += regret(a, b)
            got[c]["scatter"].append(scatter(a, b))
            cells.append(f"{geo(regret(a, b)):.3f}")
        print(f"| {kernel} | {sizes} | " + " | ".join(cells) + " |", flush=True)
    print(f"\n{done} instances, {args.top} + {args.others} configs each, two runs per round count")
    print("| rounds | regret (geometric mean) | worst regret | scatter of log(t_a/t_b) (median) |")
    print("|---|---|---|---|")
    for c in counts:
        g = got[c]
        if g["regret"]:
            print(f"| {c} | {geo(g['regret']):.3f} | {max(g['regret']):.3f} | {statistics.median(g['scatter']):.3f} |")


if __name__ == "__main__":
    main()
