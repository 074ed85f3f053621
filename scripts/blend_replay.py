#!/usr/bin/env python3
"""Blends of several models' scores replayed on stored rows (issue "A model
that earns its place").

Held out by kernel family, the first pick ranks candidates by the sum of two
z-scores: the network's prediction and the blended ranker's linear estimate
(`src/model/ranker.rs`). This script asks whether other sums do better,
without training anything: a second network (another loss, width or seed)
added as a third term, or another normalisation than the z-score.

It reads `tss eval --json` reports of the same test rows, one directory per
model, each holding FAMILY.json files (`scripts/leave_family_out.py --keep
DIR`). Where the blend applied, a report stores the two scores it summed per
candidate (`parts`); elsewhere the candidates' predictions are the network's
own. The first directory is the base: its untiled-gate decisions (T1 is the
untiled code where the base's T1 is and its network's first pick is not)
and its cache-rule fallbacks are kept as they are; where any report marks the
original as strided, no blend takes it first, as in `tss eval`. A term is `DIR:network` or
`DIR:ranker`; a blend is terms joined by `+`. Instances where the base did
not blend keep the base's ranking in every blend.

Prints, per blend and normalisation, the geometric-mean TN of T1 and of the
k best predictions timed (k = 4, 8, 16), over the instances of every report.

  scripts/blend_replay.py --base R --blend R:network+R:ranker \\
      --blend R:network+Rp:network+R:ranker --norm z,robust,rank
"""
import argparse
import glob
import json
import math
import os
import statistics


def load(d):
    """(family, kernel, sizes) -> instance of every report in directory `d`."""
    out = {}
    for path in sorted(glob.glob(os.path.join(d, "*.json"))):
        family = os.path.basename(path)[: -len(".json")]
        with open(path) as f:
            for inst in json.load(f)["instances"]:
                out[(family, inst["kernel"], inst["sizes"])] = inst
    return out


def raw(inst, part):
    """A term's raw scores on `inst` (`None` where the report did not blend it
    and the ranker is asked for)."""
    parts = inst.get("parts")
    if parts:
        return parts[part]
    return [c[2] for c in inst["candidates"]] if part == "network" else None


def strided_original(inst):
    """Whether eval kept the original from first place: it walks memory at a
    stride, or its innermost loop carries a recurrence and it runs on one
    thread. Reports since `strided` (and `recurrent`, `threaded`) say so; in
    older ones it shows only where the network put the original first and T1
    did not."""
    if "strided" in inst:
        return inst["strided"] or (inst.get("recurrent", False) and not inst.get("threaded", False))
    s = inst["scores"]
    return s.get("T1 network", {}).get("config") == "untiled" and s["T1"]["config"] != "untiled"


def normalise(xs, how):
    """z-scores; `robust`: (x - median) / MAD, clipped to [-3, 3]; `rank`:
    ranks scaled to mean 0, unit spread."""
    n = len(xs)
    if how == "z":
        m, s = statistics.fmean(xs), statistics.pstdev(xs)
        return [(x - m) / s if s > 0 else 0.0 for x in xs]
    if how == "robust":
        m = statistics.median(xs)
        mad = statistics.median(abs(x - m) for x in xs) * 1.4826
        return [max(-3.0, min(3.0, (x - m) / mad)) if mad > 0 else 0.0 for x in xs]
    order = sorted(range(n), key=lambda k: xs[k])
    r = [0.0] * n
    for pos, k in enumerate(order):
        r[k] = (pos - (n - 1) / 2) / (n / math.sqrt(12)) if n > 1 else 0.0
    return r


def geo(xs):
    return math.exp(statistics.fmean(math.log(x) for x in xs)) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", required=True, help="report directory whose gate and fallbacks are kept")
    ap.add_argument("--blend", action="append", required=True, help="terms DIR:network or DIR:ranker joined by +")
    ap.add_argument("--norm", default="z,robust,rank", help="normalisations to try, comma-separated")
    args = ap.parse_args()
    dirs = {args.base}
    blends = []
    for b in args.blend:
        terms = [t.rsplit(":", 1) for t in b.split("+")]
        if any(len(t) != 2 or t[1] not in ("network", "ranker") for t in terms):
            raise SystemExit(f"blend_replay: bad blend {b!r}: want DIR:network or DIR:ranker terms joined by +")
        dirs.update(d for d, _ in terms)
        blends.append((b, terms))
    reports = {d: load(d) for d in dirs}
    base = reports[args.base]
    keys = [k for k in base if all(k in reports[d] for d in dirs)]
    print(f"{len(keys)} instances in every report ({len(base)} in the base)\n")
    print("| blend | normalisation | T1 | guided 4 | guided 8 | guided 16 |")
    print("|---|---|---|---|---|---|")
    b_t1 = [base[k]["scores"]["T1"]["tn"] for k in keys]
    print(f"| base's own T1 | - | {geo(b_t1):.3f} | | | |")
    for name, terms in blends:
        for how in args.norm.split(","):
            t1s, guided = [], {4: [], 8: [], 16: []}
            for key in keys:
                inst = base[key]
                cands = inst["candidates"]
                best = min(c[1] for c in cands)
                configs = [c[0] for c in cands]
                scores = inst["scores"]
                gated = scores["T1"]["config"] == "untiled" and scores.get("T1 network", {}).get("config") != "untiled"
                vecs = []
                for d, part in terms:
                    other = reports[d][key]
                    if [c[0] for c in other["candidates"]] != configs:
                        raise SystemExit(f"blend_replay: {d} holds other candidates for {key}")
                    vecs.append(raw(other, part))
                if inst.get("ruled") or not inst.get("parts") or any(v is None for v in vecs):
                    total = [c[2] for c in cands]
                else:
                    normed = [normalise(v, how) for v in vecs]
                    total = [sum(col) for col in zip(*normed)]
                order = sorted(range(len(cands)), key=lambda i: (total[i], i))
                strided = any(strided_original(reports[d][key]) for d in dirs)
                first = next(i for i in order if not (strided and configs[i] == "untiled"))
                pick = configs.index("untiled") if gated else first
                if inst.get("ruled"):
                    pick = configs.index(scores["T1"]["config"])
                t1s.append(cands[pick][1] / best)
                for k in guided:
                    guided[k].append(min(cands[i][1] for i in order[:k]) / best)
            g = " | ".join(f"{geo(guided[k]):.3f}" for k in (4, 8, 16))
            print(f"| {name} | {how} | {geo(t1s):.3f} | {g} |")


if __name__ == "__main__":
    main()
