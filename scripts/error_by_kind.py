#!/usr/bin/env python3
"""Where a model's first-pick error sits (issue "A model that earns its place").

Reads `tss eval --json` reports (e.g. the FAMILY.json files that
`scripts/leave_family_out.py --keep DIR` keeps) and splits T1's log-TN by the
kind of the pick and of the instance's fastest config: the loops as written,
a plain tile, a scalar register tile (unroll factors other than 1) or a vector
register tile (`/vG`). For the instances where a scalar register tile was
picked and another one is fastest, it also asks which half of the config was
wrong: the fastest timed config with the pick's own unroll factors (had the
network put its register tile on the right tile sizes), and how often the
pick is a cubic tile. Nothing is timed: it reads the stored times.

  scripts/error_by_kind.py DIR/*.json
"""
import argparse
import json
import math
from collections import defaultdict


def kind(config):
    """`untiled`, `vector`, `register` or `plain`."""
    if config == "untiled":
        return "untiled"
    if "/v" in config:
        return "vector"
    _, _, rest = config.partition(":")
    factors = rest.split("/")[0].split("x") if rest else []
    return "register" if any(f != "1" for f in factors) else "plain"


def unroll(config):
    """The unroll factors of a config (`4x1x4` of `64x64x64:4x1x4/pack`)."""
    return config.partition(":")[2].split("/")[0]


def cubic(config):
    sizes = config.partition(":")[0].split("/")[0].split("x")
    return config != "untiled" and len(set(sizes)) == 1


def geo(logs):
    return math.exp(sum(logs) / len(logs)) if logs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("reports", nargs="+", help="tss eval --json reports")
    args = ap.parse_args()
    by_kind = defaultdict(list)
    same_unroll = []
    cubic_picks = cubic_best = n = 0
    for path in args.reports:
        with open(path) as f:
            report = json.load(f)
        for inst in report["instances"]:
            candidates = inst["candidates"]  # [config, seconds, prediction]
            best = min(candidates, key=lambda c: c[1])
            t1 = inst["scores"]["T1"]
            pick = t1["config"]
            n += 1
            cubic_picks += cubic(pick)
            cubic_best += cubic(best[0])
            by_kind[(kind(pick), kind(best[0]))].append(math.log(t1["tn"]))
            if (kind(pick), kind(best[0])) == ("register", "register"):
                times = [c[1] for c in candidates if kind(c[0]) == "register" and unroll(c[0]) == unroll(pick)]
                same_unroll.append(math.log(min(times) / best[1]))
    total = sum(sum(v) for v in by_kind.values())
    print(f"{n} instances, T1 geometric-mean TN {geo([x for v in by_kind.values() for x in v]):.3f}\n")
    print("| pick / fastest | instances | share of T1's log-TN | their geometric-mean TN |")
    print("|---|---|---|---|")
    for key, logs in sorted(by_kind.items(), key=lambda kv: -sum(kv[1])):
        share = 100 * sum(logs) / total if total else 0.0
        print(f"| {key[0]} / {key[1]} | {len(logs)} | {share:.1f} % | {geo(logs):.3f} |")
    if same_unroll:
        print(
            f"\nregister / register: the fastest timed config with the pick's own unroll factors scores "
            f"{geo(same_unroll):.3f} over {len(same_unroll)} instances (the pick {geo(by_kind[('register', 'register')]):.3f})"
        )
    print(f"cubic tiles: picked on {cubic_picks} of {n} instances, fastest on {cubic_best}")


if __name__ == "__main__":
    main()
