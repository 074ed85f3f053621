#!/usr/bin/env python3
"""Session 67's A/B of the `compiled` feature set against `source` (issue "A model that earns its place").

Reads `tss eval --json` reports (plain or .gz) and prints, per report, the geometric-mean TN of
T1, T1 compiled (T1 with --compiled's veto; where the report has it), model-guided and diverse
search with 8 measurements, T6-Search, and the baselines measured on the same rows (best
constant, constant+vector, cache rule, tile 32, random search with 8). Nothing is timed.

  scripts/compiled_features.py $F/compiled-s67/*.json.gz
"""
import gzip
import json
import sys

COLUMNS = ["T1", "T1 compiled", "guided 8", "diverse 8", "T6-Search", "constant", "constant+vector",
           "cache rule", "tile 32", "random 8"]


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def row(report):
    summary = report["summary"]
    curve = {c["k"]: c for c in report["search_curve"]}
    got = {m: s["tn_geo"] for m, s in summary.items() if isinstance(s, dict) and "tn_geo" in s}
    got["guided 8"] = curve[8]["guided_geo"]
    got["diverse 8"] = curve[8]["diverse_geo"]
    got["random 8"] = curve[8]["random_geo"]
    return [f"{got[c]:.3f}" if c in got else "" for c in COLUMNS]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print("| report | instances | " + " | ".join(COLUMNS) + " |")
    print("|---|---|" + "---|" * len(COLUMNS))
    for path in sys.argv[1:]:
        report = load(path)
        name = path.rsplit("/", 1)[-1].split(".json")[0]
        print(f"| {name} | {len(report['instances'])} | " + " | ".join(row(report)) + " |")


if __name__ == "__main__":
    main()
