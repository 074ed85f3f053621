#!/usr/bin/env python3
"""A/B of models on stored test rows, timing nothing: runs `tss eval --json`
for every model on every test file (the reports go to OUT, named
<label>--<model>.json, and are reused when present) and prints one markdown
table of geometric-mean TN: each model's first pick (T1) and its 8 best
predictions timed (guided 8), beside the baselines of the same rows, which do
not depend on the model (random search with 8 measurements, the best constant
config and constant+vector chosen on the model's training rows, the cache
rule, Pluto's tile 32).

    scripts/ab_table.py --out /tmp/ab --kernels corpus/blas,... \\
        --model built-in=trained/corpus-serial-pooled --model bands=/tmp/bands \\
        --data "corpus Zen 4=data/.../corpus-serial-test.csv" [--parallel] [--tss target/release/tss]
"""
import argparse
import json
import os
import subprocess
import sys


def pair(text):
    label, _, value = text.partition("=")
    if not value:
        raise argparse.ArgumentTypeError(f"expected LABEL=PATH, got '{text}'")
    return label, value


def report(args, label, data, name, model):
    path = os.path.join(args.out, f"{label.replace(' ', '-')}--{name}.json")
    if not os.path.exists(path):
        cmd = [args.tss, "eval", "--model", model, "--data", data, "--kernels", args.kernels, "--json"]
        if args.parallel:
            cmd.append("--parallel")
        print(f"ab_table: {' '.join(cmd)}", file=sys.stderr)
        out = subprocess.run(cmd, stdout=subprocess.PIPE, check=True).stdout
        with open(path + ".tmp", "wb") as f:
            f.write(out)
        os.replace(path + ".tmp", path)
    return json.load(open(path))


def geo(rep, method):
    return (rep["summary"].get(method) or {}).get("tn_geo")


def curve(rep, key, k=8):
    row = next((c for c in rep["search_curve"] if c["k"] == k), None)
    return row and row.get(key + "_geo")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    p.add_argument("--kernels", required=True)
    p.add_argument("--model", type=pair, action="append", required=True)
    p.add_argument("--data", type=pair, action="append", required=True)
    p.add_argument("--parallel", action="store_true")
    p.add_argument("--tss", default="target/release/tss")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    fmt = lambda v: "-" if v is None else f"{v:.3f}"
    names = [n for n, _ in args.model]
    head = [f"T1 {n}" for n in names] + [f"guided 8 {n}" for n in names]
    head += ["random 8", "constant", "constant+vector", "cache rule", "tile 32", "instances"]
    print("| rows | " + " | ".join(head) + " |")
    print("|---" * (len(head) + 1) + "|")
    for label, data in args.data:
        reps = [report(args, label, data, n, m) for n, m in args.model]
        # Baselines come from the first model's report: the rows are the same.
        base = reps[0]
        cells = [geo(r, "T1") for r in reps] + [curve(r, "guided") for r in reps]
        cells += [curve(base, "random"), geo(base, "constant"), geo(base, "constant+vector")]
        cells += [geo(base, "cache rule"), geo(base, "tile 32")]
        n = (base["summary"].get("T1") or {}).get("instances")
        print(f"| {label} | " + " | ".join(fmt(c) for c in cells) + f" | {n} |")


if __name__ == "__main__":
    main()
