#!/usr/bin/env python3
"""How much of a reported TN is measurement noise: times again the model's
first pick (T1) and the `--top` fastest stored configs of each instance in
`tss eval --json` reports, each `--reps` times in one run, and compares the
pick's ratio to the fastest of them with the stored TN (issue "A model that
earns its place").

A test instance times about 250 configs once each (three times near the best)
and takes the fastest as the reference, so a lucky reference or an unlucky
single timing of the pick moves TN. Run on a quiet machine, on the machine the
rows were measured on:

  scripts/remeasure.py REPORT.json [REPORT.json ...] [--limit 40] [--reps 5] [--top 5] [--seed 1]

Prints per instance the stored and re-measured TN, then their geometric means.
"""
import argparse
import glob
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from leave_family_out import ROOT, geo  # noqa: E402


def kernel_file(name):
    hits = glob.glob(os.path.join(ROOT, "corpus", "*", name + ".c"))
    return hits[0] if hits else None


def measure(tss, src, sizes, tiles, reps=None, rounds=None):
    """Median seconds per config from one `tss measure` run (None if not
    ok): each timed `reps` times in one process, or in `rounds` processes."""
    cmd = [tss, "measure", src, "--size", sizes, "--json"]
    if reps:
        cmd += ["--reps", str(reps), "--near", "1000"]
    if rounds:
        cmd += ["--rounds", str(rounds)]
    for t in tiles:
        if t == "untiled":
            cmd.append("--baseline")
        else:
            cmd += ["--tile", t]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        print(f"  {os.path.basename(src)} {sizes}: {out.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return None
    got = {r["variant"]: r["median"] for r in json.loads(out.stdout)["results"] if r["status"] == "ok"}
    return [got.get(t) for t in tiles]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("reports", nargs="+", help="`tss eval --json` reports (e.g. leave_family_out.py --keep files)")
    ap.add_argument("--limit", type=int, default=40, help="instances to re-time, drawn at random")
    ap.add_argument("--reps", type=int, default=5, help="timed runs per config")
    ap.add_argument("--top", type=int, default=5, help="stored-fastest configs re-timed as the reference")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tss", default=os.path.join(ROOT, "target", "release", "tss"))
    args = ap.parse_args()
    pool = []
    for path in args.reports:
        for inst in json.load(open(path))["instances"]:
            cands = inst["candidates"]
            if len(cands) < 2 or inst["t1_tile"] is None:
                continue
            fastest = sorted({c[0]: c for c in cands}.values(), key=lambda c: c[1])[: args.top]
            t1 = next(c for c in cands if c[0] == inst["t1_tile"])
            if fastest[0][0] != t1[0]:
                pool.append((inst["kernel"], inst["sizes"], t1, fastest))
    random.Random(args.seed).shuffle(pool)
    stored, again = [], []
    print("| kernel | sizes | T1 pick | stored best | re-measured best | stored TN | re-measured TN |")
    print("|---|---|---|---|---|---|---|")
    for kernel, sizes, (pick, pick_t, _), fastest in pool[: args.limit]:
        src = kernel_file(kernel)
        tiles = [pick] + [c[0] for c in fastest if c[0] != pick]
        times = measure(args.tss, src, sizes, tiles, args.reps, rounds=1) if src else None
        if not times or None in times:
            continue
        ref = min(range(1, len(tiles)), key=lambda k: times[k])
        stored.append(pick_t / fastest[0][1])
        again.append(times[0] / times[ref])
        print(f"| {kernel} | {sizes} | {pick} | {fastest[0][0]} | {tiles[ref]} | {stored[-1]:.3f} | {again[-1]:.3f} |",
              flush=True)
    print(f"\n{len(stored)} instances where T1 is not the stored best: geometric-mean TN stored "
          f"{geo(stored):.3f}, re-measured {geo(again):.3f}; the re-measured pick beats the re-measured "
          f"{args.top} stored-fastest on {sum(t < 1 for t in again)}")


if __name__ == "__main__":
    main()
