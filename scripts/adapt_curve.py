#!/usr/bin/env python3
"""TN against minutes of `tss adapt` on this machine (issue "Any machine").

Runs `tss adapt --model BASE` in steps (its rows accumulate: every step reruns
the same seed with a larger budget, so it resumes where the previous stopped),
and after each step scores the adapted model with `tss eval` on a test set
measured on this machine. Row 0 is the base model unadapted. Prints one
markdown row per step: geometric-mean TN of T1 and model-guided search with
k = 4, 8, 16 measurements, and on the same rows the baselines (tile 32, the
cache rule, the best constant config of --train, the untiled code, random
search with k measurements).

  scripts/adapt_curve.py --model trained/corpus-serial --test $I/corpus-serial-test.csv \\
      --train $D/corpus-serial-train.csv --kernels corpus/blas,... --minutes 5,10,20 \\
      --cache /tmp/adapt-cache --keep /tmp/adapt-models

Adaptation times kernels: run it on a quiet machine. The adapted models stay
under --keep (DIR/<minutes>m), the rows in the cache's `adapt/` directory.

--replay ROWS refits on rows measured before instead of timing anything:
step r keeps the first r instances of every kernel of ROWS (`tss adapt`
measures instance 0 of every kernel, then instance 1, ...), so steps are
rounds (--rounds 1,2,4) rather than minutes, and the fits compare on the
same rows (e.g. --adapt-args "--fit tune" against "--fit correct").
"""
import argparse
import csv
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from leave_family_out import ROOT, geo, methods_for, run, score_instances  # noqa: E402

KS = [4, 8, 16]


def evaluate(tss, model, test, train):
    ev = json.loads(run([tss, "eval", "--model", model, "--data", test, "--train", train, "--json"]))
    per, speedup = score_instances(ev, KS)
    return len(ev["instances"]), per, speedup


def first_rounds(src, rounds, dst):
    """Copies the rows of `src` whose instance index (`seed:k`) is below `rounds`."""
    with open(src, newline="") as f, open(dst, "w", newline="") as g:
        reader = csv.reader(f)
        header = next(reader)
        col = header.index("instance")
        w = csv.writer(g, lineterminator="\n")
        w.writerow(header)
        w.writerows(r for r in reader if int(r[col].split(":")[1]) < rounds)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True, help="the base model directory")
    ap.add_argument("--test", required=True, help="test rows measured on this machine")
    ap.add_argument("--train", required=True, help="the base model's training rows (for the constant baseline)")
    ap.add_argument("--kernels", help="kernels `tss adapt` times, as its --kernels (not with --replay)")
    ap.add_argument("--minutes", default="5,10,20", help="cumulative adapt budgets to score")
    ap.add_argument("--seed", default="1000")
    ap.add_argument("--adapt-args", default="", help="more `tss adapt` options, e.g. \"--per-instance 4 --picks 4\"")
    ap.add_argument("--cache", required=True, help="TSS_CACHE for the adaptation (its rows and compiled objects)")
    ap.add_argument("--keep", required=True, help="directory for the adapted models (KEEP/<minutes>m)")
    ap.add_argument("--tss", default=os.path.join(ROOT, "target/release/tss"))
    ap.add_argument("--replay", help="refit on these adapt rows instead of measuring (see above)")
    ap.add_argument("--rounds", default="1,2,4", help="with --replay: instances per kernel kept at each step")
    args = ap.parse_args()
    if not args.replay and not args.kernels:
        ap.error("--kernels is needed to measure (or --replay ROWS to refit on rows measured before)")
    os.environ["TSS_CACHE"] = args.cache
    methods = methods_for(KS)
    print(f"| adapt minutes | rows | instances | {' | '.join(methods)} | T1 speedup over tile 32 |")
    print("|---|---|---|" + "---|" * (len(methods) + 1))

    def line(minutes, rows, model):
        n, per, sp = evaluate(args.tss, model, args.test, args.train)
        cells = " | ".join(f"{geo(per[m]):.3f}" for m in methods)
        print(f"| {minutes} | {rows} | {n} | {cells} | {geo(sp):.2f}x |", flush=True)

    line(0, 0, args.model)
    if args.replay:
        for r in [int(x) for x in args.rounds.split(",")]:
            out = os.path.join(args.keep, f"{r}r")
            os.makedirs(out, exist_ok=True)
            rows = os.path.join(out, "rows.csv")
            first_rounds(args.replay, r, rows)
            cmd = [args.tss, "adapt", "--model", args.model, "--budget", "0", "--data", rows, "--out", out, "--quiet"]
            sys.stderr.write(run(cmd + args.adapt_args.split()))
            with open(os.path.join(out, "model.json")) as f:
                n = json.load(f)["data"]["rows"]
            line(f"{r} rounds", n, out)
        return
    done = 0.0
    for m in [float(x) for x in args.minutes.split(",")]:
        out = os.path.join(args.keep, f"{m:g}m")
        cmd = [args.tss, "adapt", "--model", args.model, "--kernels", args.kernels, "--seed", args.seed]
        cmd += ["--budget", f"{max(m - done, 0.1) * 60:.0f}s", "--out", out, "--quiet"] + args.adapt_args.split()
        report = run(cmd)
        sys.stderr.write(report)
        done = m
        with open(os.path.join(out, "model.json")) as f:
            rows = json.load(f)["data"]["rows"]
        line(f"{m:g}", rows, out)


if __name__ == "__main__":
    main()
