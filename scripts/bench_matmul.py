#!/usr/bin/env python3
"""Matmul: tss-tiled vs Pluto-structured vs untiled, measured in one run;
with numpy installed, also OpenBLAS's dgemm (numpy's `@`, one thread) as an
external reference for what a hand-tuned library reaches.

Builds tss first (nothing is built while timing), tiles
polybench/paper/matmul.c, compiles the untiled kernel, tss's output with
constant tile sizes (-DTSS_Tk=T) and benches/pluto_style_matmul.c with the
same T, checks at a small size that all three print the same array, then
times them interleaved, pinned to one core, and prints medians and ratios.

usage: scripts/bench_matmul.py [--size 1024] [--tiles 32,64] [--reps 5] [--cflags "-O3 -march=native"]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw).stdout


def compile_c(cc, cflags, src, exe, defines):
    sh([cc, *cflags.split(), "-I", os.path.join(ROOT, "polybench/include"), *defines, src, "-o", exe, "-lm"])


# One BLAS thread, like the pinned C variants.
BLAS_ENV = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}

BLAS_TIMER = """
import sys, time
import numpy as np
n = int(sys.argv[1])
rng = np.random.default_rng(1)
a, b = rng.random((n, n)), rng.random((n, n))
c = np.zeros((n, n))
a[:64, :64] @ b[:64, :64]
t = time.perf_counter()
c += a @ b
print(time.perf_counter() - t)
"""


def blas_command(n):
    """The command that prints the seconds of one n^3 double-precision
    C += A B through numpy (OpenBLAS), or None without numpy."""
    if subprocess.run([sys.executable, "-c", "import numpy"], capture_output=True).returncode != 0:
        return None
    return [sys.executable, "-c", BLAS_TIMER, str(n)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=1024, help="NI = NJ = NK (default 1024)")
    ap.add_argument("--tiles", default="32,64", help="cubic tile sizes to compare (default 32,64)")
    ap.add_argument("--reps", type=int, default=5, help="timed runs per variant (default 5)")
    ap.add_argument("--cflags", default=os.environ.get("CFLAGS", "-O3 -march=native"))
    args = ap.parse_args()
    cc = os.environ.get("CC", "cc")

    print("building tss ...", file=sys.stderr)
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    tss = os.path.join(ROOT, "target/release/tss")
    tmp = tempfile.mkdtemp(prefix="tss-bench-")
    kernel = os.path.join(ROOT, "polybench/paper/matmul.c")
    pluto = os.path.join(ROOT, "benches/pluto_style_matmul.c")
    tiled = os.path.join(tmp, "matmul.tiled.c")
    sh([tss, "tile", kernel, "-o", tiled])

    tiles = [int(t) for t in args.tiles.split(",")]
    variants = {"untiled": (kernel, [])}
    for t in tiles:
        variants[f"tss T={t}"] = (tiled, [f"-DTSS_T{k}={t}" for k in (1, 2, 3)])
        variants[f"pluto-style T={t}"] = (pluto, [f"-DT={t}"])

    # Same arrays at a small, non-square size. FMA contraction rounds the
    # untiled reduction differently from vectorised code, so the check turns
    # it off; the timed builds use the flags as given.
    small = ["-DNI=67", "-DNJ=45", "-DNK=53", "-DPOLYBENCH_DUMP_ARRAYS", "-ffp-contract=off"]
    outputs = {}
    for name, (src, d) in variants.items():
        exe = os.path.join(tmp, "check")
        compile_c(cc, args.cflags, src, exe, d + small)
        outputs[name] = sh([exe])
    if len(set(outputs.values())) != 1:
        sys.exit("variants disagree on the result; not timing")

    n = args.size
    exes = {}
    for k, (name, (src, d)) in enumerate(variants.items()):
        exes[name] = os.path.join(tmp, f"v{k}")
        compile_c(cc, args.cflags, src, exes[name], d + [f"-DNI={n}", f"-DNJ={n}", f"-DNK={n}", "-DPOLYBENCH_TIME"])
    pin = ["taskset", "-c", "1"] if shutil.which("taskset") else []
    runs = {name: pin + [exe] for name, exe in exes.items()}
    blas = blas_command(n)
    if blas:
        runs["OpenBLAS (numpy)"] = pin + blas
    else:
        print("numpy not installed: no OpenBLAS reference", file=sys.stderr)
    times = {name: [] for name in runs}
    for r in range(args.reps):
        for name, cmd in runs.items():
            times[name].append(float(sh(cmd, env=BLAS_ENV).split()[0]))
        print(f"run {r + 1}/{args.reps} done", file=sys.stderr)

    base = statistics.median(times["untiled"])
    print(f"matmul {n}x{n}x{n}, {cc} {args.cflags}, {args.reps} runs each, pinned to one core")
    print(f"{'variant':<18} {'median s':>9} {'min s':>8} {'speedup vs untiled':>19} {'tss / pluto-style':>18}")
    for name in times:
        med = statistics.median(times[name])
        ratio = ""
        if name.startswith("tss"):
            t = name.split("=")[1]
            ratio = f"{statistics.median(times['pluto-style T=' + t]) / med:.3f}x"
        print(f"{name:<18} {med:9.3f} {min(times[name]):8.3f} {base / med:18.2f}x {ratio:>18}")
    print("(tss / pluto-style > 1 means tss's code is faster)")
    if blas:
        best = min((statistics.median(v), k) for k, v in times.items() if k.startswith("tss"))
        print(f"best tss variant ({best[1]}) takes {best[0] / statistics.median(times['OpenBLAS (numpy)']):.2f}x OpenBLAS's time")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
