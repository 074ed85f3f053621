#!/usr/bin/env python3
"""Time a model's first picks on a test set with two tss binaries, side by side.

After a change to the generated code, the stored rows still hold the old
code's times, so `tss eval` cannot show what the change does to the configs a
model actually picks. This reads `tss eval --json` (the candidates and the
model's scores per test instance), takes each instance's T1 pick (the best
score), and times it with `--old` and `--new` alternately (`tss measure`,
`--rounds` times each). It prints the instances whose pick changed speed by
more than 3 %, and T1's geometric-mean TN as stored and as the new code would
score it (the stored TN times new/old of the pick; the reference, the fastest
stored config, keeps its stored time, so this is conservative where the change
also speeds up other configs).

  tss eval --json --model M --data TEST.csv --train TRAIN.csv > eval.json
  scripts/retime_picks.py --old /tmp/tss-old eval.json

Run on a quiet machine: nothing may build meanwhile.
"""

import argparse
import json
import math
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from codegen_change import NEW, kernel_files, measure  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("eval_json", help="`tss eval --json` output")
    ap.add_argument("--old", required=True, help="tss binary of the collection")
    ap.add_argument("--new", default=str(NEW), help="tss binary with the change (default: %(default)s)")
    ap.add_argument("--only", help="only picks whose config contains this text (e.g. `/v`)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    files = kernel_files()
    instances = json.load(open(args.eval_json))["instances"]
    stored, new_tn = [], []
    for n, inst in enumerate(instances, 1):
        pick = min(inst["candidates"], key=lambda c: c[2])
        best = min(c[1] for c in inst["candidates"])
        tn = pick[1] / best
        stored.append(tn)
        if pick[0] == "untiled" or (args.only and args.only not in pick[0]):
            new_tn.append(tn)
            continue
        times = {"old": [], "new": []}
        for _ in range(args.rounds):
            for label, binary in [("old", args.old), ("new", args.new)]:
                t = measure(binary, files[inst["kernel"]], inst["sizes"], [pick[0]], args.reps).get(pick[0])
                if t is not None:
                    times[label].append(t)
        if not times["old"] or not times["new"]:
            print(f"[{n}/{len(instances)}] {inst['kernel']} {pick[0]}: did not run with both binaries", flush=True)
            new_tn.append(tn)
            continue
        ratio = statistics.median(times["new"]) / statistics.median(times["old"])
        new_tn.append(tn * ratio)
        if abs(ratio - 1) > 0.03:
            print(f"[{n}/{len(instances)}] {inst['kernel']} ({inst['sizes']}) {pick[0]}: new/old {ratio:.3f}, "
                  f"TN {tn:.3f} -> {tn * ratio:.3f}", flush=True)
    gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
    print(f"\nT1 over {len(instances)} instances: stored TN {gm(stored):.3f}, with the new code's pick times "
          f"{gm(new_tn):.3f}")


if __name__ == "__main__":
    main()
