#!/usr/bin/env python3
"""Measuring searches replayed on stored rows (issue "A model that earns its place").

Reads `tss eval --json` reports (each instance lists its candidates as
[config, seconds, prediction] and the order diverse search times them) and
scores, for k = 1..K measurements, searches that choose each next
measurement from the times already taken. Only stored candidates can be
"measured", as in `tss eval`'s own curves, so every search here draws from
the same rows as random search does.

- guided: the k best predictions.
- diverse: `tss eval`'s order (the best prediction of each kind of code
  first, the untiled code second, then by prediction).
- focus M: the first M of the diverse order, then the best-predicted
  untimed candidate of the kind of code (loop order, packing, vector width,
  register tile) of the fastest timed so far.
- near M: as focus M, but the next is the untimed candidate of that kind
  whose tile sizes are closest (in log2 steps) to the fastest timed so far,
  prediction breaking ties: a local search around the best measurement.

Session 55 found that where the network's first pick is a register tile and
another register tile is fastest, the fastest config with the pick's own
unroll factors scores 1.077 against the pick's 1.306: the kind of code is
mostly right and the tile sizes are not. These searches spend the later
measurements on the tile sizes. Nothing is timed.

  scripts/search_sim.py --k 8 DIR/*.json
"""
import argparse
import functools
import json
import math


@functools.lru_cache(maxsize=None)
def parse(config):
    """(tiles, kind) of a stored config; kind is None for the untiled code.
    Cached: the searches ask it of every candidate at every step."""
    if config == "untiled":
        return [], None
    head, _, rest = config.partition(":")
    flags = config.split("/")[1:]
    tiles = [int(t) for t in head.split("/")[0].split("x")]
    unroll = [int(u) for u in rest.split("/")[0].split("x")] if rest else [1]
    depth = len(tiles)
    unroll = (unroll + [unroll[-1]] * depth)[:depth] if len(unroll) < depth else unroll
    vector = next((int(f[1:]) for f in flags if f.startswith("v") and f[1:].isdigit()), 0)
    return tiles, ("nosink" in flags, "pack" in flags, vector, math.prod(unroll))


def distance(a, b):
    """log2 steps between two tile lists; a cubic tile lists one size, spread over the band."""
    d = max(len(a), len(b))
    pad = lambda t: (t + [t[-1]] * d)[:d] if t else [1] * d
    return sum(abs(math.log2(x) - math.log2(y)) for x, y in zip(pad(a), pad(b)))


def search(inst, k, first, pick_next):
    """Fastest time among k measurements: `first` of the diverse order,
    then whatever `pick_next` chooses given the times so far."""
    cands = inst["candidates"]
    timed = list(inst["search_order"][: max(1, min(first, k))])
    while len(timed) < min(k, len(cands)):
        nxt = pick_next(cands, timed)
        if nxt is None:
            nxt = next(i for i in inst["search_order"] if i not in timed)
        timed.append(nxt)
    return min(cands[i][1] for i in timed)


def fastest_kind(cands, timed):
    """The tile sizes of the fastest timed candidate, and the untimed
    candidates of its kind of code (none when it is the untiled code)."""
    best = min(timed, key=lambda i: cands[i][1])
    tiles, kind = parse(cands[best][0])
    rest = [i for i in range(len(cands)) if i not in timed and kind is not None and parse(cands[i][0])[1] == kind]
    return tiles, rest


def focus(cands, timed):
    _, rest = fastest_kind(cands, timed)
    return min(rest, key=lambda i: cands[i][2]) if rest else None


def near(cands, timed):
    tiles, rest = fastest_kind(cands, timed)
    return min(rest, key=lambda i: (distance(parse(cands[i][0])[0], tiles), cands[i][2])) if rest else None


def geo(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("reports", nargs="+")
    ap.add_argument("--k", type=int, default=8, help="largest number of measurements (default 8)")
    ap.add_argument("--first", default="2,4", help="diverse measurements before focusing (default 2,4)")
    args = ap.parse_args()
    insts = []
    for path in args.reports:
        with open(path) as f:
            insts += json.load(f)["instances"]
    firsts = [int(m) for m in args.first.split(",")]
    methods = {"guided": lambda e, k: min(sorted(e["candidates"], key=lambda c: c[2])[i][1] for i in range(min(k, len(e["candidates"]))))}
    methods["diverse"] = lambda e, k: search(e, k, k, lambda c, t: None)
    for m in firsts:
        methods[f"focus {m}"] = lambda e, k, m=m: search(e, k, m, focus)
        methods[f"near {m}"] = lambda e, k, m=m: search(e, k, m, near)
    print(f"{len(insts)} instances; geometric-mean TN against each instance's fastest stored config\n")
    print("| k | " + " | ".join(methods) + " |")
    print("|---" * (len(methods) + 1) + "|")
    for k in range(1, args.k + 1):
        row = [geo([f(e, k) / e["best"] for e in insts]) for f in methods.values()]
        print(f"| {k} | " + " | ".join(f"{x:.3f}" for x in row) + " |")


if __name__ == "__main__":
    main()
