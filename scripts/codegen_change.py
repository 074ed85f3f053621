#!/usr/bin/env python3
"""What a change to tss's generated code does to the collected rows.

A row's time belongs to the code the binary of its collection generated. When
code generation changes, the rows whose code changed are stale. The tiled code
depends on the kernel, the unroll factors, `/nosink`, `/pack` and `/vG`, not on
the tile sizes (they stay `TSS_Tk` macros), so each (kernel, code key) is
generated once by either binary and compared.

  stale   list the (kernel, code key) pairs whose code differs between --old and
          --new, with their row counts per file; `--delete` rewrites the files
          without those rows (collection then measures them again: the
          collection scripts skip the rows that are still there)
  time    time old and new code side by side, alternating, on the first
          instance of each changed kernel in a test file: its 3 best configs
          and cubic 32, 64, 128; prints per-config new/old ratios and their
          geometric mean, and best-of-set new/old per kernel

With `--binding-caps`, `stale` keeps only the rows whose code the packed
buffer width cap of session 48 changes in effect: every `/pack` config's text
changed, but its buffers are narrower only where a tile exceeds its reads'
extent at the row's sizes.

Run `time` on a quiet machine (nothing building).

  scripts/codegen_change.py stale --old /tmp/tss-old data/<machine>/harness2-constant/*.csv
  scripts/codegen_change.py stale --binding-caps --delete --old <7e555a6^ build> data/<machine>/harness3-constant/corpus-*.csv
  scripts/codegen_change.py time --old /tmp/tss-old --csv data/<machine>/harness2-constant/corpus-serial-test.csv
"""

import argparse
import csv
import json
import math
import re
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NEW = ROOT / "target" / "release" / "tss"


def kernel_files():
    """Kernel name -> C file, over corpus/ and polybench/."""
    out = {}
    for base in ["polybench", "corpus"]:
        for f in sorted((ROOT / base).rglob("*.c")):
            if "include" not in f.parts and "utilities" not in f.parts:
                out.setdefault(f.stem, f)
    return out


def code_key(config):
    """`64x256x128:4x1x4/pack` -> ('4x1x4', 'pack', depth 3); None for `untiled`."""
    sizes, *flags = config.split("/")
    if sizes == "untiled":
        return None
    _, _, unroll = sizes.partition(":")
    return unroll, "/".join(flags), len(sizes.partition(":")[0].split("x"))


def tile_args(key):
    unroll, flags, depth = key
    args = ["--tile", ",".join(["32"] * depth)]
    if unroll:
        args += ["--unroll", unroll.replace("x", ",")]
    for f in filter(None, flags.split("/")):
        args += ["--vector", f[1:]] if f.startswith("v") else [{"nosink": "--no-sink", "pack": "--pack"}[f]]
    return args


def generate(binary, path, key):
    r = subprocess.run([str(binary), "tile", str(path), *tile_args(key), "-o", "-"], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else f"error: {r.stderr.strip()}"


def changed_keys(old, new, files, rows):
    """The (kernel, key) pairs of `rows` whose code differs between the binaries."""
    pairs = sorted({(r["kernel"], k) for r in rows if (k := code_key(r["tile"])) is not None})
    missing = sorted({k for k, _ in pairs if k not in files})
    if missing:
        sys.exit(f"codegen_change: no C file for kernels {', '.join(missing)}")

    def differs(pair):
        kernel, key = pair
        return generate(old, files[kernel], key) != generate(new, files[kernel], key)

    out = set()
    with ThreadPoolExecutor(2) as pool:
        for n, (pair, d) in enumerate(zip(pairs, pool.map(differs, pairs)), 1):
            if n % 100 == 0 or n == len(pairs):
                print(f"compared {n}/{len(pairs)}", file=sys.stderr, flush=True)
            if d:
                out.add(pair)
    return out


def call_args(s, i):
    """The comma-separated arguments of the C call whose `(` is at s[i]."""
    depth, out, start = 0, [], i + 1
    for k in range(i, len(s)):
        if s[k] == "(":
            depth += 1
        elif s[k] == ")":
            depth -= 1
            if depth == 0:
                return out + [s[start:k].strip()]
        elif s[k] == "," and depth == 1:
            out.append(s[start:k].strip())
            start = k + 1
    return out


def buffer_caps(code):
    """The `(width, extent)` C texts of each packed buffer width that is
    capped by its reads' extent, `tss_min(W, tss_max(E, 1))` (session 48)."""
    out = []
    for line in code.splitlines():
        if "__builtin_malloc" in line:
            for m in re.finditer(r"tss_min\(", line):
                a = call_args(line, m.end() - 1)
                if len(a) == 2 and "TSS_T" in a[0] and a[1].startswith("tss_max("):
                    out.append((a[0], a[1]))
    return out


C_FUNCS = {"tss_min": min, "tss_max": max, "tss_floord": lambda n, d: n // d, "tss_ceild": lambda n, d: -(-n // d)}


def cap_binds(row, caps):
    """Whether a buffer cap narrows a width at the row's tile and problem sizes."""
    tiles = row["tile"].split("/")[0].partition(":")[0].split("x")
    env = dict(C_FUNCS, **{f"TSS_T{k + 1}": int(t) for k, t in enumerate(tiles)})
    env.update((n, int(v)) for n, _, v in (kv.partition("=") for kv in row["sizes"].split(",")))
    return any(eval(e, {}, env) < eval(w, {}, env) for w, e in caps)


def read_rows(path):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        return reader.fieldnames, list(reader)


def cmd_stale(args):
    files = kernel_files()
    tables = {p: read_rows(p) for p in args.csv}
    every = [r for _, rows in tables.values() for r in rows]
    changed = changed_keys(args.old, args.new, files, every)
    by_kernel = {}
    for kernel, key in sorted(changed):
        by_kernel.setdefault(kernel, []).append(key)
    for kernel, keys in by_kernel.items():
        shown = ", ".join(f"{k[0] or '1'}{'/' + k[1] if k[1] else ''}" for k in keys)
        print(f"{kernel}: {shown}")
    caps = {}
    if args.binding_caps:
        caps = {pair: buffer_caps(generate(args.new, files[pair[0]], pair[1])) for pair in changed}

    def is_stale(r):
        pair = (r["kernel"], code_key(r["tile"]))
        return pair in changed and (not args.binding_caps or cap_binds(r, caps[pair]))

    for path, (fields, rows) in tables.items():
        stale = [r for r in rows if is_stale(r)]
        print(f"{path}: {len(stale)} of {len(rows)} rows stale")
        if args.delete and stale:
            keep = [r for r in rows if not is_stale(r)]
            with open(path, "w", newline="") as f:
                w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
                w.writeheader()
                w.writerows(keep)
    print(f"{len(by_kernel)} kernels, {len(changed)} code keys changed")


def measure(binary, path, sizes, configs, reps):
    cmd = [str(binary), "measure", str(path), "--size", sizes, "--json", "--reps", str(reps), "--near", "1000"]
    for c in configs:
        cmd += ["--tile", c]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return {}
    return {x["variant"]: x["median"] for x in json.loads(r.stdout)["results"] if x["status"] == "ok"}


def cmd_time(args):
    files = kernel_files()
    _, rows = read_rows(args.csv)
    changed = changed_keys(args.old, args.new, files, rows)
    kernels = sorted({k for k, _ in changed})
    if args.kernels:
        kernels = [k for k in kernels if k in args.kernels.split(",")]
    ratios, best = [], []
    for n, kernel in enumerate(kernels, 1):
        mine = [r for r in rows if r["kernel"] == kernel and r["status"] == "ok"]
        inst = mine[0]["instance"]
        mine = [r for r in mine if r["instance"] == inst and r["tile"] != "untiled"]
        top = [r["tile"] for r in sorted(mine, key=lambda r: float(r["time_median"]))[:3]]
        configs = list(dict.fromkeys(top + ["32", "64", "128"]))
        sizes = mine[0]["sizes"]
        times = {"old": {}, "new": {}}
        for _ in range(args.rounds):
            for label, binary in [("old", args.old), ("new", args.new)]:
                for c, t in measure(binary, files[kernel], sizes, configs, args.reps).items():
                    times[label].setdefault(c, []).append(t)
        per = {c: statistics.median(times["new"][c]) / statistics.median(times["old"][c])
               for c in configs if c in times["old"] and c in times["new"]}
        if not per:
            print(f"{kernel}: no config ran with both binaries")
            continue
        b = min(statistics.median(v) for v in times["new"].values()) / min(
            statistics.median(v) for v in times["old"].values())
        ratios += per.values()
        best.append(b)
        worst = max(per, key=per.get)
        print(f"[{n}/{len(kernels)}] {kernel} ({sizes}): best-of-set new/old {b:.3f}; "
              f"per config {' '.join(f'{c}={r:.2f}' for c, r in per.items())}; worst {worst}", flush=True)
    if best:
        gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
        print(f"\ngeometric mean new/old: best-of-set {gm(best):.3f} over {len(best)} kernels, "
              f"per config {gm(ratios):.3f} over {len(ratios)} configs")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("stale", help="rows whose code changed")
    s.add_argument("csv", nargs="+")
    s.add_argument("--delete", action="store_true", help="rewrite the files without the stale rows")
    s.add_argument("--binding-caps", action="store_true",
                   help="only rows where the new code narrows a packed buffer (session 48's width cap) "
                        "at the row's sizes: elsewhere the new code runs as the old")
    t = sub.add_parser("time", help="time old and new code of the changed kernels side by side")
    t.add_argument("--csv", required=True, help="a test file: instances and configs to time")
    t.add_argument("--kernels", help="comma-separated subset")
    t.add_argument("--reps", type=int, default=3, help="timed runs per config and call")
    t.add_argument("--rounds", type=int, default=2, help="old/new alternations")
    for p in (s, t):
        p.add_argument("--old", required=True, help="tss binary of the collection")
        p.add_argument("--new", default=str(NEW), help="tss binary with the change (default: %(default)s)")
    args = ap.parse_args()
    {"stale": cmd_stale, "time": cmd_time}[args.cmd](args)


if __name__ == "__main__":
    main()
