#!/usr/bin/env python3
"""The TN a perfect model would score on a test file if every timing carried
log-normal noise of spread sigma (issue "A model that earns its place").

Treats each instance's stored times as the truth, draws one noisy observation
per config (the median of three for those within 5 % of the observed fastest,
as `tss collect` repeats them), and scores the truly fastest config against the
fastest observation, as `tss eval` scores a pick against the stored fastest.

  scripts/noise_floor.py TEST.csv [--sigmas 0.05,0.1,0.15,0.2] [--seed 1]
"""
import argparse
import collections
import csv
import math
import random


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("test", help="a test dataset CSV")
    ap.add_argument("--sigmas", default="0.05,0.1,0.15,0.2", help="log-normal spreads of one timing")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    g = collections.defaultdict(list)
    for r in csv.DictReader(open(args.test)):
        if r["status"] == "ok" and r["time_median"]:
            g[(r["kernel"], r["instance"], r["sizes"])].append(float(r["time_median"]))
    inst = [v for v in g.values() if len(v) > 1]
    rng = random.Random(args.seed)
    noisy = lambda t, sigma: t * math.exp(rng.gauss(0, sigma))
    for sigma in map(float, args.sigmas.split(",")):
        logs = []
        for true in inst:
            obs = [noisy(t, sigma) for t in true]
            fastest = min(obs)
            obs = [sorted([o, noisy(t, sigma), noisy(t, sigma)])[1] if o <= 1.05 * fastest else o
                   for o, t in zip(obs, true)]
            k = min(range(len(true)), key=lambda i: true[i])
            logs.append(math.log(obs[k] / min(obs)))
        print(f"sigma {sigma}: {len(inst)} instances, a perfect pick scores TN {math.exp(sum(logs) / len(logs)):.3f}")


if __name__ == "__main__":
    main()
