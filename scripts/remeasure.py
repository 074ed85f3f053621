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

With --methods, every method's pick is timed again, not only T1's: per
instance, one `tss measure --rounds R` run times the untiled code, the `--top`
stored-fastest configs and the config each method of the report picked (T1,
the network's own pick, T6-Search, guided and diverse search with 8
measurements, one seeded draw of random search with 8, the constants, the
cache and traffic rules, tile 32), and each
method's TN is its pick's time over the fastest of them. So the model and the
baselines are compared on one run's timings, not on a reference that is the
luckiest of some 250 stored timings. Each instance's result is appended to
--out (JSON lines) as it is measured, and a rerun skips what is there:

  scripts/remeasure.py --methods DIR/*.json --out re.jsonl [--limit 0] [--rounds 3] [--reps 3]
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
    ap.add_argument("--methods", action="store_true", help="time every method's pick again (above)")
    ap.add_argument("--rounds", type=int, default=3, help="--methods: worker processes per config (tss measure --rounds)")
    ap.add_argument("--out", help="--methods: JSON lines of per-instance results, appended and resumed")
    args = ap.parse_args()
    if args.methods:
        return remeasure_methods(args)
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


# The picks `--methods` times again, as they are named in the reports.
PICKS = ["T1", "T1 network", "T6-Search", "constant", "constant+vector", "cache rule", "traffic rule", "tile 32"]


def method_picks(inst):
    """Method name -> the config it picked on one reported instance: the
    scored methods' own, the searches with 8 measurements' fastest, the
    untiled code."""
    cands = inst["candidates"]
    # Reports of tss before 2026-11-29 do not name the picks: the candidate
    # with the score's time is the pick (T1's is named).
    by_time = {c[1]: c[0] for c in cands}
    picks = {m: s.get("config") or by_time.get(s["time"]) for m, s in inst["scores"].items() if m in PICKS}
    picks["T1"] = inst["t1_tile"]
    picks = {m: c for m, c in picks.items() if c}
    by_pred = sorted(range(len(cands)), key=lambda k: cands[k][2])
    picks["guided 8"] = cands[min(by_pred[:8], key=lambda k: cands[k][1])][0]
    if inst.get("search_order"):
        picks["diverse 8"] = cands[min(inst["search_order"][:8], key=lambda k: cands[k][1])][0]
    # One draw of random search with 8 measurements (its expectation is not
    # a config to time), seeded by the instance.
    draw = random.Random(f"{inst['kernel']} {inst['sizes']}").sample(range(len(cands)), min(8, len(cands)))
    picks["random 8"] = cands[min(draw, key=lambda k: cands[k][1])][0]
    if any(c[0] == "untiled" for c in cands):
        picks["untiled"] = "untiled"
    return picks


def done_instances(out):
    """(kernel, sizes) of the instances a JSON-lines result file holds already, so a rerun resumes."""
    if not out or not os.path.exists(out):
        return set()
    with open(out) as f:
        return {(r["kernel"], r["sizes"]) for r in map(json.loads, f)}


def report_instances(reports, seed, limit):
    """(family, instance) of every instance with two or more candidates in `tss eval --json`
    reports named FAMILY.json, in a seeded order and cut to `limit` (0: all), the same on every rerun."""
    pool = []
    for path in reports:
        family = os.path.splitext(os.path.basename(path))[0]
        pool += [(family, inst) for inst in json.load(open(path))["instances"] if len(inst["candidates"]) >= 2]
    random.Random(seed).shuffle(pool)
    return pool[:limit] if limit else pool


def remeasure_methods(args):
    """`--methods`: times every method's pick of each reported instance again
    (those already in --out are skipped), appends each result, summarises."""
    done = done_instances(args.out)
    pool = [(f, i) for f, i in report_instances(args.reports, args.seed, args.limit) if (i["kernel"], i["sizes"]) not in done]
    for n, (family, inst) in enumerate(pool, 1):
        src = kernel_file(inst["kernel"])
        if not src:
            continue
        cands = inst["candidates"]
        # A baseline may pick a config the model's methods leave out
        # (`left_out`, copies larger than L2): its stored time is there.
        stored = {c[0]: c[1] for c in cands + inst.get("left_out", [])}
        picks = method_picks(inst)
        tiles = list(dict.fromkeys([c[0] for c in sorted(cands, key=lambda c: c[1])[: args.top]] + list(picks.values())))
        times = measure(args.tss, src, inst["sizes"], tiles, args.reps, rounds=args.rounds)
        if not times or None in times:
            continue
        t = dict(zip(tiles, times))
        ref = min(times)
        row = {"family": family, "kernel": inst["kernel"], "sizes": inst["sizes"],
               "stored": {m: stored[c] / inst["best"] for m, c in picks.items()},
               "again": {m: t[c] / ref for m, c in picks.items()},
               "picks": picks, "fastest": min(t, key=t.get)}
        if args.out:
            with open(args.out, "a") as f:
                f.write(json.dumps(row) + "\n")
        print(f"[{n}/{len(pool)}] {inst['kernel']} {inst['sizes']}: T1 stored {row['stored']['T1']:.3f}, "
              f"again {row['again']['T1']:.3f}", file=sys.stderr, flush=True)
    if args.out:
        summarise_methods(args.out)


def summarise_methods(path):
    """Per method, geometric-mean TN over the instances of `path`, stored
    against timed again, pooled and per family."""
    with open(path) as f:
        rows = [json.loads(line) for line in f]
    methods = [m for m in ["T1", "T1 network", "guided 8", "diverse 8", "T6-Search", "random 8"] + PICKS[3:] + ["untiled"]
               if all(m in r["again"] for r in rows)]
    families = sorted({r["family"] for r in rows})
    print(f"{len(rows)} instances; TN stored / timed again (geometric means)\n")
    print("| family | instances | " + " | ".join(methods) + " |")
    print("|---|---|" + "---|" * len(methods))
    for fam in families + ["**all**"]:
        sel = [r for r in rows if fam == "**all**" or r["family"] == fam]
        cells = [f"{geo([r['stored'][m] for r in sel]):.3f} / {geo([r['again'][m] for r in sel]):.3f}" for m in methods]
        print(f"| {fam} | {len(sel)} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
