#!/usr/bin/env python3
"""Compares the model variants trained by scripts/train_all.sh for one mode:
validation and test tile-selection scores from each model.json. Prints a
markdown table and, last, `best: <name>` (lowest test TN of T1)."""
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
    rows.append((name, m["config"]["feature_set"], m["config"]["target"], m["best_epoch"], m["val_loss"],
                 get(val, "T1", "tn"), get(test, "T1", "tn"), get(test, "T6-Search", "tn"),
                 get(test, "T1", "speedup"), get(test, "T6-Search", "speedup"), get(test, "tile 32", "tn")))
fmt = lambda v, d=3: "-" if v is None else f"{v:.{d}f}"
print("| model | features | target | best epoch | val loss | val TN T1 | test TN T1 | test TN T6-Search | test S T1 | test S T6-Search | test TN tile 32 |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    print(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {fmt(r[4], 4)} | {fmt(r[5])} | {fmt(r[6])} | {fmt(r[7])} | {fmt(r[8], 2)} | {fmt(r[9], 2)} | {fmt(r[10])} |")
scored = [r for r in rows if r[6] is not None]
if scored:
    print("")
    print("best: " + min(scored, key=lambda r: r[6])[0])
