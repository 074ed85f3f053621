#!/usr/bin/env python3
"""Compares the model variants trained by scripts/train_all.sh for one mode:
validation and test tile-selection scores from each model.json. Prints a
markdown table and, last, `best: <name>`: the lowest validation TN of T1.

The choice uses the validation split (10 % of the training instances), never
the test set, so that the test scores reported for the shipped model are not
inflated by picking the variant that happened to do best on them."""
import json
import os
import sys

out, mode = sys.argv[1], sys.argv[2]
rows = []
for name in sorted(os.listdir(out)):
    meta = os.path.join(out, name, "model.json")
    if not name.startswith(mode + "-") or not os.path.exists(meta):
        continue
    m = json.load(open(meta))
    s = m.get("scores") or {}
    val = (s.get("validation") or {})
    test = ((s.get("test") or {}).get("summary") or {})
    get = lambda d, meth, k: (d.get(meth) or {}).get(k)
    rows.append((name, m["config"]["feature_set"], m["config"]["target"], m["config"].get("ensemble", 1), m["config"].get("stop_on", "loss"), m["val_loss"],
                 get(val, "T1", "tn"), get(test, "T1", "tn"), get(test, "T6-Search", "tn"),
                 get(test, "T1", "speedup"), get(test, "T6-Search", "speedup"), get(test, "tile 32", "tn")))
fmt = lambda v, d=3: "-" if v is None else f"{v:.{d}f}"
print("| model | features | target | networks | stop on | val loss | val TN T1 | test TN T1 | test TN T6-Search | test S T1 | test S T6-Search | test TN tile 32 |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    print(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} | {fmt(r[5], 4)} | {fmt(r[6])} | {fmt(r[7])} | {fmt(r[8])} | {fmt(r[9], 2)} | {fmt(r[10], 2)} | {fmt(r[11])} |")
scored = [r for r in rows if r[6] is not None]
if scored:
    print("")
    print("best: " + min(scored, key=lambda r: r[6])[0])
