#!/usr/bin/env python3
"""Measuring searches as users run them, held out (issue "A model that earns its place").

Stored test rows replay only searches among the configs they hold, about 60 per
instance, so they cannot judge T6-Search's refinement, which times configs of its
own around the fastest kept one (README, "A fifth CPU": a local search needs the
machine). This runs the real `tss predict --mode t6-search` on the test instances
of `tss eval --json` reports, each with the model that never saw the instance's
family (scripts/leave_family_out.py --keep R --keep-models M), at budgets of
SEARCH:REFINE measurements (`--search SEARCH --refine REFINE`; SEARCH `-` keeps
tss's default; SEARCH:REFINE@PATH runs another tss binary, to compare two
versions' searches). Then one
`tss measure --rounds R` run per instance times, side by side:
  - each budget's pick;
  - the report's T1 pick, searches of 8 measurements among its stored rows
    (guided: the 8 best predicted; diverse: its search order; random) and its
    baselines (best constant, constant+vector, cache rule, tile 32);
  - the untiled code and the `--top` stored-fastest configs.
Each method's TN is its pick's time over the fastest config of that run, so a
refinement that finds a config faster than every stored one moves the reference
too. Run alone on the machine the test rows were measured on:

  scripts/live_search.py --reports R/*.json --models M --budgets 4:4,8:8 --out live.jsonl [--limit 40]

With --model M, every instance of the reports runs model M instead (one report of
`tss eval --model M --json` serves), e.g. the built-in model on a CPU none of its
rows came from.

Each instance's result is appended to --out as it is measured, and a rerun skips
the instances there, so an interrupted run resumes. `--summary` only prints the
tables of --out.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from leave_family_out import ROOT, geo  # noqa: E402
from remeasure import done_instances, kernel_file, measure, report_instances  # noqa: E402


def predict(tss, src, sizes, model, search, refine):
    """The pick of one T6-Search run, the measurements it made and its wall seconds (None if it failed)."""
    cmd = [tss, "predict", src, "--size", sizes, "--model", model, "--mode", "t6-search", "--refine", str(refine),
           "--emit", "json", "--no-cache"]
    if search is not None:
        cmd += ["--search", str(search)]
    start = time.monotonic()
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        print(f"  {os.path.basename(src)} {sizes}: {out.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return None
    c = json.loads(out.stdout)
    timed = sum(k["measured"] is not None for k in c["kept"]) + max(0, len(c["refined"]) - 1)
    return c["config"], timed, time.monotonic() - start


def stored_picks(inst, rng):
    """The report's picks, searches among its stored rows (each the fastest stored of its 8
    measurements) and baselines."""
    cands = inst["candidates"]
    fastest = lambda ks: cands[min(ks, key=lambda k: cands[k][1])][0]  # noqa: E731
    picks = {"T1": inst["t1_tile"]}
    picks["guided 8"] = fastest(sorted(range(len(cands)), key=lambda k: cands[k][2])[:8])
    if inst.get("search_order"):
        picks["diverse 8"] = fastest(inst["search_order"][:8])
    picks["random 8"] = fastest(rng.sample(range(len(cands)), min(8, len(cands))))
    for base in ("constant", "constant+vector", "cache rule", "tile 32"):
        if base in inst["scores"] and inst["scores"][base].get("config"):
            picks[base] = inst["scores"][base]["config"]
    return picks


def run(args):
    budgets = []
    for b in args.budgets.split(","):
        b, _, binary = b.partition("@")
        s, r = b.split(":")
        s, r = (None if s == "-" else int(s)), int(r)
        name = f"live {'default' if s is None else s}+{r}" + (f" ({os.path.basename(binary)})" if binary else "")
        budgets.append((name, s, r, binary or args.tss))
    done = done_instances(args.out)
    todo = [(f, i) for f, i in report_instances(args.reports, args.seed, args.limit) if (i["kernel"], i["sizes"]) not in done]
    started = time.monotonic()
    for n, (family, inst) in enumerate(todo, 1):
        src = kernel_file(inst["kernel"])
        if args.model:
            model, family = args.model, os.path.basename(os.path.dirname(src or "?/?"))
        else:
            model = os.path.join(args.models, family)
        if not src or not os.path.isdir(model):
            print(f"  skipped {inst['kernel']}: no source or no model {model}", file=sys.stderr)
            continue
        picks, timed, wall = stored_picks(inst, random.Random(f"{args.seed}/{inst['kernel']}")), {}, {}
        for name, s, r, binary in budgets:
            got = predict(binary, src, inst["sizes"], model, s, r)
            if got:
                picks[name], timed[name], wall[name] = got
        cands = inst["candidates"]
        top = [c[0] for c in sorted(cands, key=lambda c: c[1])[: args.top]]
        tiles = list(dict.fromkeys(top + ["untiled"] + [p for p in picks.values() if p]))
        times = measure(args.tss, src, inst["sizes"], tiles, args.reps, rounds=args.rounds)
        if not times or None in times:
            print(f"  skipped {inst['kernel']} {inst['sizes']}: a config failed to time", file=sys.stderr)
            continue
        t = dict(zip(tiles, times))
        ref = min(times)
        row = {"family": family, "kernel": inst["kernel"], "sizes": inst["sizes"], "picks": picks,
               "tn": {m: t[c] / ref for m, c in picks.items() if c}, "timed": timed, "wall": wall,
               "fastest": min(t, key=t.get), "new_fastest": min(t, key=t.get) not in {c[0] for c in cands}}
        with open(args.out, "a") as f:
            f.write(json.dumps(row) + "\n")
        eta = (time.monotonic() - started) / n * (len(todo) - n)
        cells = ", ".join(f"{m} {v:.3f}" for m, v in row["tn"].items())
        print(f"[{n}/{len(todo)}, ETA {eta / 60:.0f} min] {inst['kernel']} {inst['sizes']}: {cells}",
              file=sys.stderr, flush=True)


def summarise(path):
    """Per method, geometric-mean TN per family and pooled, with the measurements and wall time of the live runs."""
    with open(path) as f:
        rows = [json.loads(line) for line in f]
    methods = [m for m in dict.fromkeys(k for r in rows for k in r["tn"]) if all(m in r["tn"] for r in rows)]
    print(f"{len(rows)} instances; geometric-mean TN against the fastest config of each instance's one timing run\n")
    print("| family | instances | " + " | ".join(methods) + " |")
    print("|---|---|" + "---|" * len(methods))
    for fam in sorted({r["family"] for r in rows}) + ["**all**"]:
        sel = [r for r in rows if fam == "**all**" or r["family"] == fam]
        print(f"| {fam} | {len(sel)} | " + " | ".join(f"{geo([r['tn'][m] for r in sel]):.3f}" for m in methods) + " |")
    for m in [m for m in methods if m.startswith("live")]:
        sel = [r for r in rows if m in r["timed"]]
        mean = lambda k: sum(r[k][m] for r in sel) / len(sel)  # noqa: E731
        print(f"\n{m}: {mean('timed'):.1f} measurements and {mean('wall'):.0f} s per instance on average")
    print(f"\nA live pick is faster than every stored config on {sum(r['new_fastest'] for r in rows)} instances.")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reports", nargs="*", default=[], help="held-out `tss eval --json` reports, FAMILY.json")
    ap.add_argument("--models", help="directory of the folds' models, FAMILY/ (leave_family_out.py --keep-models)")
    ap.add_argument("--model", help="one model for every instance (e.g. the built-in one on a CPU it never saw); "
                    "families are then the kernels' corpus directories")
    ap.add_argument("--budgets", default="4:4,8:8",
                    help="comma-separated SEARCH:REFINE measurement budgets; SEARCH:REFINE@PATH runs the tss at PATH "
                         "(another version's search, timed in the same run)")
    ap.add_argument("--out", required=True, help="JSON lines of per-instance results, appended and resumed")
    ap.add_argument("--limit", type=int, default=0, help="instances to run, drawn at random (0: all)")
    ap.add_argument("--top", type=int, default=5, help="stored-fastest configs timed beside the picks")
    ap.add_argument("--reps", type=int, default=3, help="timed runs per config and process")
    ap.add_argument("--rounds", type=int, default=3, help="worker processes per config (tss measure --rounds)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--summary", action="store_true", help="only print the tables of --out")
    ap.add_argument("--tss", default=os.path.join(ROOT, "target", "release", "tss"))
    args = ap.parse_args()
    if not args.summary:
        if not args.reports or not (args.models or args.model):
            ap.error("--reports and --models (or --model) are needed to measure (or --summary)")
        run(args)
    if os.path.exists(args.out):
        summarise(args.out)


if __name__ == "__main__":
    main()
