#!/usr/bin/env python3
"""Leave-family-out evaluation of the corpus model (issue "A model that earns its place").

For each kernel family of corpus/ (blas, tensor, nn, ...), trains a model on the
training rows of every *other* family, then runs `tss eval` on the test rows of the
held-out family, with the best constant config chosen on those same training rows.
Prints, per family and pooled over every held-out instance, the geometric-mean TN
(time over the fastest config timed on the instance) of:
  - T1 (the model's first pick) and model-guided search with k = 4, 8, 16
    measurements (the k best predictions timed, the fastest kept), and its
    diverse form ("diverse k": the best prediction of each kind of code first,
    as T6-Search times them; README, "Diverse search"), and T6-Search (10 % of
    the instance's timed configs in that order, about 20);
  - the baselines: Pluto's tile 32, the analytical cache rule, the traffic rule
    (least estimated L2 then L1 traffic; needs rows with `traffic` features), the best constant
    config of the training rows, the best cubic tile taken as its vector anchor wherever the
    instance has one (`vector` set only), the untiled original, and random search with
    k measurements (expected value over all draws);
and T1's geometric-mean speedup over tile 32. Nothing is timed here: the test
rows were measured by `tss collect`, so it can run beside anything.

  scripts/leave_family_out.py --train T.csv --test S.csv [--target relative] [--loss pairwise] [--ensemble 5]
  scripts/leave_family_out.py --train SERIAL.csv,PARALLEL.csv --test PARALLEL-TEST.csv --parallel --set parallel
                               (the parallel model, trained on both modes' rows)

To ask what teaches the model more, narrow the training rows:
  --without random         never train on these families (e.g. the random nests;
                           "random" is every fold of them, random0 the first 16)
  --max-instances 6        train on at most the first N instances of each kernel
  --hold-out blas,nn       evaluate only these held-out families
  --keep DIR               keep each fold's `tss eval --json` (DIR/FAMILY.json)
  --keep-models DIR        keep each fold's trained model too (DIR/FAMILY/), for `tss predict`
                           runs that time what a held-out model picks on the machine
  --rescore DIR            train nothing: score the reports an earlier --keep DIR kept
  --models DIR             train nothing: run this tss's `tss eval` on the models an earlier
                           --keep-models DIR kept (after a change to what eval scores)
  --caution 0,1            score each fold's networks ranking by the members' mean plus
                           0, then 1, standard deviations (tss eval --caution; needs
                           --ensemble 2 or more to change anything)
  --pool-machines          the training files are several machines' (tss train --pool-machines)
  --blend                  fit each fold's blended ranker too (`tss train --blend`)
  --gate [linear|rules]    fit each fold's untiled gate on its training rows (`tss train
                           --gate KIND`, linear when no kind is named) and apply it in
                           `tss eval`; "T1 network" is then the network's own first pick
                           beside the gated T1

With the `registers` feature set the untiled original is a candidate too (the
model may answer "do not tile"), so the reference is the fastest of the
configs and the untiled code.
"""
import argparse
import concurrent.futures
import csv
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIRS = ["blas", "tensor", "nn", "datamining", "solvers", "stencils", "random"]
# The random nests are many and alike in kind, so they are held out in folds
# of this many (random0 = rand-00..15, random1 = rand-16..31, ...): a fold is
# judged by a model that trained on the other folds, as a user's unseen nest
# would be. "random" names every fold.
RANDOM_FOLD = 16
KS = [4, 8, 16]


def family_of():
    out = {}
    for d in DIRS:
        for f in os.listdir(os.path.join(ROOT, "corpus", d)):
            if f.endswith(".c"):
                name = f[:-2]
                out[name] = f"random{int(name.split('-')[1]) // RANDOM_FOLD}" if d == "random" else d
    return out


def families(names, known):
    """Expands "random" to every random fold and rejects unknown names."""
    out = []
    for n in names:
        out += sorted(k for k in known if k.startswith("random")) if n == "random" else [n]
    unknown = set(out) - set(known)
    if unknown:
        sys.exit(f"unknown families: {', '.join(sorted(unknown))} (known: random, {', '.join(known)})")
    return out


def write_rows(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def read(path):
    with open(path, newline="") as f:
        r = csv.reader(f)
        header = next(r)
        return header, list(r)


def estimate_table(paths):
    """The compiler's estimates (`tss estimate`'s compiled.csv) beside `paths`,
    which a fold's temporary files must carry for `--set compiled`; one
    directory's only, as the table names no machine."""
    dirs = {os.path.dirname(os.path.abspath(p)) for p in paths}
    found = sorted(os.path.join(d, "compiled.csv") for d in dirs if os.path.exists(os.path.join(d, "compiled.csv")))
    if len(found) > 1:
        sys.exit(f"leave_family_out: {', '.join(found)}: several machines' estimates; pool them with tss train instead")
    return found[0] if found else None


def read_all(paths):
    """Rows of several files with one header (e.g. a machine's serial and
    parallel training files)."""
    header, rows = read(paths[0])
    for p in paths[1:]:
        h, more = read(p)
        if h != header:
            sys.exit(f"{p}: its columns differ from {paths[0]}'s (refeature both)")
        rows += more
    return header, rows


def geo(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def guided_min(cands, k):
    """Fastest measured time among the k best predictions."""
    ranked = sorted(cands, key=lambda c: c[2])
    return min(c[1] for c in ranked[:k])


def random_min(cands, k):
    """Expected fastest of k configs drawn without replacement."""
    times = sorted(c[1] for c in cands)
    n = len(times)
    k = min(k, n)
    total = math.comb(n, k)
    # P(min is the i-th smallest) = C(n-1-i, k-1) / C(n, k)
    return sum(t * math.comb(n - 1 - i, k - 1) for i, t in enumerate(times)) / total


METHODS = ["T1", "T1 network", "T6-Search", "tile 32", "cache rule", "traffic rule", "constant", "constant+vector"]


def methods_for(ks):
    """The columns `score_instances` fills, in table order."""
    return (["T1"] + [f"guided {k}" for k in ks] + [f"diverse {k}" for k in ks] + METHODS[1:] + ["untiled"]
            + [f"random {k}" for k in ks])


def diverse_min(inst, k):
    """Fastest measured time among the first k of the instance's search order."""
    cands = inst["candidates"]
    return min(cands[i][1] for i in inst["search_order"][:k])


def score_instances(ev, ks):
    """Per method, each instance's TN from a `tss eval --json` report, and
    T1's speedups over tile 32."""
    per = {m: [] for m in methods_for(ks)}
    speedup = []
    for inst in ev["instances"]:
        s, best, cands = inst["scores"], inst["best"], inst["candidates"]
        if len(cands) < 2:
            continue  # no choice (reports before `tss eval` skipped these)
        for m in METHODS:
            if m in s:
                per[m].append(s[m]["tn"])
        if inst.get("baseline"):
            per["untiled"].append(inst["baseline"] / best)
        for k in ks:
            per[f"guided {k}"].append(guided_min(cands, k) / best)
            if "search_order" in inst:
                per[f"diverse {k}"].append(diverse_min(inst, k) / best)
            per[f"random {k}"].append(random_min(cands, k) / best)
        if "tile 32" in s:
            speedup.append(s["tile 32"]["time"] / s["T1"]["time"])
    return per, speedup


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{p.stderr}")
    return p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--train", required=True, help="training rows: a CSV, or several comma-separated")
    ap.add_argument("--test", required=True)
    ap.add_argument("--target", default="relative")
    ap.add_argument("--loss", default="huber", help="huber or pairwise")
    ap.add_argument("--set", default="registers")
    ap.add_argument("--stop-on", default="loss")
    ap.add_argument("--ensemble", default="1", help="networks per model")
    ap.add_argument("--hidden", default="32", help="units per hidden layer")
    ap.add_argument("--dropout", default="0.2")
    ap.add_argument("--lr", default="5e-4", help="learning rate")
    ap.add_argument("--epochs", default="400", help="most epochs per network (early stopping may end sooner)")
    ap.add_argument("--patience", default="40", help="early stopping: epochs without a better validation score")
    ap.add_argument("--parallel", action="store_true",
                    help="score the test file's parallel rows; the constant baselines are chosen on the fold's "
                         "parallel training rows (the training file may hold serial rows too, for --set parallel)")
    ap.add_argument("--weight-decay", default="0", help="L2 penalty on the weights")
    ap.add_argument("--cap", default="", help="relative target: train ratios above this as this ratio (tss train --cap)")
    ap.add_argument("--untiled-weight", default="1", help="train each untiled row this many times per epoch (tss train --untiled-weight)")
    ap.add_argument("--seed", default="42", help="seed of the validation split and the first network")
    ap.add_argument("--jobs", type=int, default=1, help="folds trained at once (each network uses about one core)")
    ap.add_argument("--val-by", default="instance", help="early stopping's validation split: instance or kernel")
    ap.add_argument("--log-inputs", action="store_true", help="wide inputs on a log scale")
    ap.add_argument("--pool-machines", action="store_true",
                    help="the training files are several machines' (tss train --pool-machines; each machine's rows "
                         "are their own instances), as the built-in serial model is trained")
    ap.add_argument("--tss", default=os.path.join(ROOT, "target/release/tss"))
    ap.add_argument("--without", default="", help="comma-separated families never trained on")
    ap.add_argument("--max-instances", type=int, default=0, help="train on at most N instances per kernel (0: all)")
    ap.add_argument("--hold-out", default="", help="comma-separated families to evaluate (default: all)")
    ap.add_argument("--keep", default="", help="directory to keep each fold's `tss eval --json` in (FAMILY.json), for a closer look")
    ap.add_argument("--keep-models", default="",
                    help="directory to keep each fold's trained model in (FAMILY/), for timing its picks later")
    ap.add_argument("--blend", action="store_true",
                    help="fit each fold's blended ranker (`tss train --blend`; README, \"A learned untiled gate\")")
    ap.add_argument("--gate", nargs="?", const="linear", choices=["linear", "rules"],
                    help="fit and apply the untiled gate of this kind (README, \"The untiled gate\")")
    ap.add_argument("--caution", default="0",
                    help="comma-separated: rank by the members' mean plus this many standard deviations (tss eval "
                         "--caution); each value is scored from the same networks, in a table of its own")
    ap.add_argument("--rescore", default="", help="train nothing; score the FAMILY.json reports in this directory (from --keep)")
    ap.add_argument("--models", default="",
                    help="train nothing; evaluate the FAMILY/ models in this directory (from --keep-models)")
    args = ap.parse_args()
    fam = family_of()
    known = sorted(set(fam.values()), key=lambda f: (DIRS.index(f.rstrip("0123456789")), f))
    without = set(families([f for f in args.without.split(",") if f], known))
    held = families([f for f in args.hold_out.split(",") if f], known) or known
    header, train = read_all(args.train.split(","))
    theader, test = read(args.test)
    table = estimate_table(args.train.split(",") + [args.test])
    ki = header.index("kernel")
    mi = header.index("mode")
    train = [r for r in train if fam.get(r[ki]) not in without]
    if args.max_instances:
        ii = header.index("instance")
        train = [r for r in train if int(r[ii].split(":")[1]) < args.max_instances]
    # Evaluating with rules needs the kernels' sources; the linear gate reads the rows.
    kernels = ["--kernels", ",".join(os.path.join(ROOT, "corpus", d) for d in DIRS)] if args.gate == "rules" else []
    gate = (["--gate", args.gate] if args.gate else []) + (["--blend"] if args.blend else [])
    methods = methods_for(KS)
    cautions = args.caution.split(",")

    def kept_name(f, c):
        """Where a fold's report is kept: FAMILY.json for the first caution value."""
        return f"{f}.json" if c == cautions[0] else f"{f}-caution{c}.json"

    def train_fold(trp, model):
        """Trains one fold's model on the rows in `trp` into directory `model`."""
        run([args.tss, "train", "--data", trp, "--out", model, "--set", args.set,
             "--target", args.target, "--loss", args.loss, "--stop-on", args.stop_on, "--ensemble", args.ensemble,
             "--hidden", args.hidden, "--dropout", args.dropout, "--lr", args.lr, "--epochs", args.epochs,
             "--weight-decay", args.weight_decay, "--val-by", args.val_by, "--patience", args.patience,
             "--seed", args.seed]
            + (["--log-inputs"] if args.log_inputs else []) + (["--cap", args.cap] if args.cap else [])
            + (["--pool-machines"] if args.pool_machines else [])
            + (["--untiled-weight", args.untiled_weight] if args.untiled_weight != "1" else []) + kernels + gate)

    def fold(f):
        """The held-out family's `tss eval` reports by caution value, or None without test rows."""
        te = [r for r in test if fam.get(r[ki]) == f]
        if not te:
            return None
        if args.rescore:
            paths = {c: os.path.join(args.rescore, kept_name(f, c)) for c in cautions}
            if not all(os.path.exists(p) for p in paths.values()):
                return None
            return {c: json.load(open(p)) for c, p in paths.items()}
        tr = [r for r in train if fam.get(r[ki]) != f]
        with tempfile.TemporaryDirectory() as tmp:
            trp, tep, model = (os.path.join(tmp, n) for n in ("train.csv", "test.csv", "model"))
            write_rows(trp, header, tr)
            write_rows(tep, theader, te)
            if table:
                shutil.copy(table, os.path.join(tmp, "compiled.csv"))
            if args.models:
                model = os.path.join(args.models, f)
                if not os.path.isdir(model):
                    sys.exit(f"leave_family_out: {model}: no kept model for family {f}")
            else:
                train_fold(trp, model)
            consts = trp
            if args.parallel:
                consts = os.path.join(tmp, "train-parallel.csv")
                write_rows(consts, header, [r for r in tr if r[mi] == "parallel"])
            outs = {c: run([args.tss, "eval", "--model", model, "--data", tep, "--train", consts, "--json",
                            "--caution", c] + (["--parallel"] if args.parallel else []) + kernels)
                    for c in cautions}
            if args.keep_models and not args.models:
                kept_model = os.path.join(args.keep_models, f)
                shutil.rmtree(kept_model, ignore_errors=True)
                shutil.copytree(model, kept_model)
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            for c, out in outs.items():
                with open(os.path.join(args.keep, kept_name(f, c)), "w") as kept:
                    kept.write(out)
        return {c: json.loads(out) for c, out in outs.items()}

    # Folds are independent subprocesses, so threads are enough to overlap them.
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = [(f, evs) for f, evs in zip(held, pool.map(fold, held)) if evs is not None]
    for c in cautions:
        if len(cautions) > 1:
            print(f"\ncaution {c} (the members' mean plus {c} standard deviations):\n")
        print_table([(f, evs[c]) for f, evs in results], methods)


def print_table(results, methods):
    """The markdown table of per-family and pooled geometric-mean TNs of
    `results`, (family, `tss eval --json` report) pairs."""
    pooled = {m: [] for m in methods}
    pooled_speedup = []
    lines = []
    for f, ev in results:
        per, speedup = score_instances(ev, KS)
        for m in methods:
            pooled[m].extend(per[m])
        pooled_speedup.extend(speedup)
        lines.append((f, len(per["T1"]), per, speedup))
    # A baseline no fold could score (constant+vector under a set blind to
    # vector tiles) has no column.
    methods = [m for m in methods if pooled[m]]
    print(f"| held-out family | instances | {' | '.join(methods)} | T1 speedup over tile 32 |")
    print("|---|---|" + "---|" * (len(methods) + 1))
    for f, n, per, sp in lines + [("**all**", len(pooled["T1"]), pooled, pooled_speedup)]:
        cells = " | ".join(f"{geo(per[m]):.3f}" for m in methods)
        print(f"| {f} | {n} | {cells} | {geo(sp):.2f}x |")

if __name__ == "__main__":
    main()
