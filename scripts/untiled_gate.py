#!/usr/bin/env python3
"""The untiled gate held out by family, on kept leave-family-out reports.

`scripts/leave_family_out.py --keep DIR` keeps each fold's `tss eval --json`
report (DIR/FAMILY.json), which scores the network's own first pick ("T1
network" where the fold's model had a gate, else "T1"). The networks do not
depend on the gate, so any form of the gate can be judged on those reports
without training again: for each fold, this fits the gate with `tss gate` on
the training rows of the *other* families (as `tss train --kernels` does in
that fold), then, on each held-out test instance, takes the untiled code where
the gate fires and the network's pick elsewhere. Prints per fold and pooled the
geometric-mean TN of the network alone and with the gate, and where it fired.
Nothing is timed.

  scripts/untiled_gate.py --train T.csv --test S.csv --model trained/corpus-serial DIR [--gate-tn 1.3]
  scripts/untiled_gate.py --kind linear --train T.csv --test S.csv --model trained/corpus-serial DIR

`--kind linear` fits the linear gate instead of the rules (`tss gate --kind linear`) and
applies its estimate to each test instance's untiled row.

`--model` only lends its feature set (the gate is fitted into a copy).
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from leave_family_out import DIRS, ROOT, family_of, geo, read, write_rows  # noqa: E402

KERNELS = ",".join(os.path.join(ROOT, "corpus", d) for d in DIRS)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{p.stderr}")
    return p


def traits(tss, model, csv_path, out):
    """Per instance of `csv_path`: (kernel, sizes) -> traits, via `tss gate --samples`."""
    run([tss, "gate", "--model", model, "--kind", "rules", "--data", csv_path, "--kernels", KERNELS, "--samples", out])
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    return {tuple(r["instance"].split("|")[:2]): r for r in rows}


def untiled_rows(csv_path):
    """Per instance of `csv_path`: (kernel, sizes) -> its correct untiled row's features."""
    with open(csv_path, newline="") as f:
        rows = csv.DictReader(f)
        cols = [c for c in rows.fieldnames if c.startswith("f_")]
        return {(r["kernel"], r["sizes"]): [float(r[c]) for c in cols]
                for r in rows if r["tile"] == "untiled" and r["status"] == "ok"}


def estimate(lin, x):
    """`Linear::estimate`: ln(untiled / fastest tile); non-finite inputs count as the mean."""
    return lin["bias"] + sum(w * (v - m) / s for v, m, s, w in zip(x, lin["mean"], lin["scale"], lin["weights"])
                             if s > 0 and abs(v) != float("inf") and v == v)


def fires(gate, t, x):
    """`UntiledGate::fires`: any of the gate's rules, or the linear estimate below 0."""
    lin = (gate or {}).get("linear")
    if lin and x is not None and len(x) >= len(lin["mean"]) and estimate(lin, x[:len(lin["mean"])]) < 0:
        return True
    return gate is not None and t is not None and any(
        float(t["log_data"]) > r["log_data"] and int(t["other"]) <= r["max_other"]
        and int(t["unit"]) >= r["min_unit"] and int(t["reductions"]) <= r["max_reductions"] for r in gate["rules"])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("reports", help="directory of FAMILY.json reports (leave_family_out.py --keep)")
    ap.add_argument("--train", required=True)
    ap.add_argument("--test", required=True)
    ap.add_argument("--model", required=True, help="a model of the reports' feature set")
    ap.add_argument("--gate-tn", default="1.3")
    ap.add_argument("--kind", default="rules", choices=["rules", "linear", "both"])
    ap.add_argument("--tss", default=os.path.join(ROOT, "target/release/tss"))
    args = ap.parse_args()
    fam = family_of()
    header, train = read(args.train)
    ki = header.index("kernel")
    pooled_net, pooled_gated, pooled_speedup, lines = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        model = os.path.join(tmp, "model")
        shutil.copytree(args.model, model)
        rules, linear = args.kind in ("rules", "both"), args.kind in ("linear", "both")
        test_traits = traits(args.tss, model, args.test, os.path.join(tmp, "test-traits.csv")) if rules else {}
        test_untiled = untiled_rows(args.test) if linear else {}
        for name in sorted(os.listdir(args.reports)):
            f = name[:-5]
            if not name.endswith(".json"):
                continue
            with open(os.path.join(args.reports, name)) as r:
                report = json.load(r)
            trp = os.path.join(tmp, "train.csv")
            write_rows(trp, header, [r for r in train if fam.get(r[ki]) != f])
            fit = ["--kind", args.kind] + (["--kernels", KERNELS, "--gate-tn", args.gate_tn] if rules else [])
            run([args.tss, "gate", "--model", model, "--data", trp] + fit)
            with open(os.path.join(model, "model.json")) as m:
                gate = json.load(m).get("gate")
            net, gated, fired, speedup = [], [], [], []
            for inst in report["instances"]:
                s, best = inst["scores"], inst["best"]
                pick = s.get("T1 network", s["T1"])
                key = (inst["kernel"], inst["sizes"])
                time = pick["time"]
                if inst.get("baseline") and fires(gate, test_traits.get(key), test_untiled.get(key)):
                    fired.append(f"{inst['kernel']} {pick['tn']:.2f}->{inst['baseline'] / best:.2f}")
                    time = inst["baseline"]
                gated.append(time / best)
                net.append(pick["tn"])
                if "tile 32" in s:
                    speedup.append(s["tile 32"]["time"] / time)
            pooled_net += net
            pooled_gated += gated
            pooled_speedup += speedup
            lines.append((f, len(net), geo(net), geo(gated), fired, gate, geo(speedup)))
    print("| held-out family | instances | T1, network | T1, network + gate | gate fires on | gated T1 speedup over tile 32 |")
    print("|---|---|---|---|---|---|")
    for f, n, a, b, fired, _, sp in lines:
        print(f"| {f} | {n} | {a:.3f} | {b:.3f} | {len(fired)} | {sp:.2f}x |")
    print(f"| **all** | {len(pooled_net)} | {geo(pooled_net):.3f} | {geo(pooled_gated):.3f} | "
          f"{sum(len(x[4]) for x in lines)} | {geo(pooled_speedup):.2f}x |")
    for f, _, _, _, fired, gate, _ in lines:
        if gate is not None and gate.get("linear") and not gate.get("rules"):
            print(f"{f}: linear gate, fires on {gate['fires_on']} of {gate['instances']} training instances; "
                  f"fired: {', '.join(fired) or '-'}")
            continue
        rule = "none" if gate is None else ("the linear estimate or " if gate.get("linear") else "") + " or ".join(
            f"(LOG_DATA > {r['log_data']:.2f}, other <= {r['max_other']}, unit >= {r['min_unit']}, "
            f"reductions <= {r['max_reductions']})" for r in gate["rules"])
        print(f"{f}: gate {rule}; fired: {', '.join(fired) or '-'}")


if __name__ == "__main__":
    main()
