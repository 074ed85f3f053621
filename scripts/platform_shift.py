#!/usr/bin/env python3
"""How far apart two platforms are, measured on the same instances.

Given two row files of the same instances (the same seeds and sizes, e.g. the
corpus test set collected under gcc and under clang, or on two CPUs), prints
for the configs timed on both:
- how much slower, on platform B, B's time of A's fastest config is than B's
  fastest (geometric mean over instances): what a perfect model of A loses on B;
- the same from B to A;
- on how many instances both have the same fastest config;
- the mean Spearman rank correlation of the times within an instance.

  scripts/platform_shift.py $I/corpus-serial-test.csv $I-clang19/corpus-serial-test.csv

No timing: it reads the files only.
"""
import argparse
import csv
import math
from collections import defaultdict


def times(path):
    """(kernel, instance) -> {config: median seconds} of the rows that ran correctly."""
    out = defaultdict(dict)
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["status"] == "ok" and r["time_median"]:
                # The baseline is timed repeatedly; keep its fastest median.
                key, t = (r["kernel"], r["instance"]), float(r["time_median"])
                out[key][r["tile"]] = min(t, out[key].get(r["tile"], math.inf))
    return out


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    for pos, i in enumerate(order):
        r[i] = float(pos)
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((y - mb) ** 2 for y in rb)
    return cov / math.sqrt(va * vb) if va > 0 and vb > 0 else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", help="rows of platform A")
    ap.add_argument("b", help="rows of platform B (the same instances)")
    ap.add_argument("--min-common", type=int, default=10, help="skip instances with fewer configs timed on both")
    args = ap.parse_args()
    ta, tb = times(args.a), times(args.b)
    loss_ab, loss_ba, same, rho, speed = [], [], 0, [], []
    for key in sorted(set(ta) & set(tb)):
        common = sorted(set(ta[key]) & set(tb[key]))
        if len(common) < args.min_common:
            continue
        a = [ta[key][c] for c in common]
        b = [tb[key][c] for c in common]
        best_a, best_b = min(range(len(a)), key=a.__getitem__), min(range(len(b)), key=b.__getitem__)
        loss_ab.append(b[best_a] / b[best_b])
        loss_ba.append(a[best_b] / a[best_a])
        same += best_a == best_b
        rho.append(spearman(a, b))
        speed.append(b[best_b] / a[best_a])
    n = len(loss_ab)
    if n == 0:
        raise SystemExit(f"{args.a} and {args.b}: no instance with {args.min_common} configs timed on both")

    def geo(xs):
        return math.exp(sum(math.log(x) for x in xs) / len(xs))

    print(f"instances compared: {n}")
    print(f"A's fastest config, timed on B, against B's fastest (geo-mean): {geo(loss_ab):.3f}")
    print(f"B's fastest config, timed on A, against A's fastest (geo-mean): {geo(loss_ba):.3f}")
    print(f"same fastest config: {same} of {n}")
    print(f"mean Spearman rank correlation of the times: {sum(rho) / n:.2f}")
    print(f"B's fastest time over A's fastest (geo-mean): {geo(speed):.3f}")


if __name__ == "__main__":
    main()
