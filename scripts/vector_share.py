#!/usr/bin/env python3
"""How much the vector register tiles (`/vG`) of a dataset file gain.

Over the instances that timed at least one `/vG` config, per kernel and in
all: how often a vector tile is the instance's fastest config, and the
fastest vector tile's time over the fastest other config's (below 1: the
vector tile is faster), as a geometric mean with its range. It also names the
(rows x vectors) shapes that win most often. Reads rows by column name and
times nothing.

  scripts/vector_share.py data/amd-epyc-avx2-l2-512k/harness2-constant/corpus-serial-train.csv
"""

import collections
import csv
import math
import re
import sys


def shape(tile):
    """`rows x vectors` of a `/vG` config: the largest unroll factor is the rows."""
    groups = re.search(r"/v(\d+)", tile).group(1)
    unroll = tile.split(":")[1].split("/")[0] if ":" in tile else "1"
    return f"{max(int(u) for u in unroll.split('x'))}x{groups}"


def main(paths):
    if not paths:
        sys.exit(__doc__)
    instances = collections.defaultdict(list)
    for path in paths:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if r["status"] == "ok" and r["time_median"]:
                    key = (r["kernel"], r["instance"], r["sizes"])
                    instances[key].append((r["tile"], float(r["time_median"])))
    per_kernel = collections.defaultdict(list)
    winners = collections.Counter()
    for (kernel, _, _), rows in sorted(instances.items()):
        vec = [(t, s) for t, s in rows if "/v" in t]
        other = [(t, s) for t, s in rows if "/v" not in t]
        if not vec or not other:
            continue
        bv, bo = min(vec, key=lambda x: x[1]), min(other, key=lambda x: x[1])
        per_kernel[kernel].append(bv[1] / bo[1])
        if bv[1] < bo[1]:
            winners[shape(bv[0])] += 1
    if not per_kernel:
        sys.exit("no instance timed a vector tile")
    print("| kernel | instances | vector fastest | best vector / best other (geo mean) | range |")
    print("|---|---|---|---|---|")
    everything = []
    for kernel, ratios in sorted(per_kernel.items()):
        everything += ratios
        print(row(kernel, ratios))
    print(row("all", everything))
    print("\nwinning shapes (rows x vectors):", ", ".join(f"{s} {n}" for s, n in winners.most_common()))


def row(name, ratios):
    geo = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
    wins = sum(x < 1 for x in ratios)
    return f"| {name} | {len(ratios)} | {wins} | {geo:.3f} | {min(ratios):.2f}-{max(ratios):.2f} |"


if __name__ == "__main__":
    main(sys.argv[1:])
