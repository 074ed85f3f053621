#!/usr/bin/env python3
"""Where tiling alone stands: the tile tss picks against clang + Polly and
against the BLAS routine computing the same thing, in one run.

For each paper kernel at the given sizes it builds, as whole programs with
compile-time sizes (-DNI=...), timed by polybench.h's -DPOLYBENCH_TIME and
pinned to one core:
  - untiled:  cc  $CFLAGS          the original file
  - tss:      cc  $CFLAGS          `tss predict` output (the chosen tile as defaults)
  - polly:    clang $CFLAGS -mllvm -polly (plus Polly's own tiling)   [if available]
  - blas:     OpenBLAS dgemm / dsyrk / dsyr2k / dtrmm, one thread     [if available]
and prints medians and ratios to tss. Missing tools are skipped with a note:
Debian packages `clang-19 libpolly-19-dev` and `libopenblas-dev`.

dtrmm computes every column of B := A*B, while trmm here updates only j >= i,
so its BLAS time is an upper bound; tmm has no BLAS routine.

Usage: scripts/external_refs.py [--size 1500] [--reps 3] [--kernels matmul,gemm,...]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CFLAGS = os.environ.get("CFLAGS", "-O3 -march=native").split()
PIN = ["taskset", "-c", str(max(os.cpu_count() - 1, 0))] if shutil.which("taskset") else []

# kernel -> (size macros, BLAS call). Arrays as the paper kernels declare them.
BLAS = {
    "matmul": "cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, NI, NJ, NK, 1.0, A, NK, B, NJ, 1.0, C, NJ);",
    "gemm": "cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, NI, NJ, NK, 1.5, A, NK, B, NJ, 1.0, C, NJ);",
    "dsyrk": "cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, NJ, NI, 1.5, A, NJ, 1.0, C, NJ);",
    "dsyr2k": "cblas_dsyr2k(CblasRowMajor, CblasUpper, CblasTrans, NJ, NI, 1.0, A, NJ, B, NJ, 1.0, C, NJ);",
    "trmm": "cblas_dtrmm(CblasRowMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, M, N, 1.0, A, M, B, N);",
}
SIZES = {"trmm": ("M", "N"), "dsyrk": ("NI", "NJ"), "dsyr2k": ("NI", "NJ")}
BLAS_ARRAYS = {  # name -> (rows, cols) in size macros
    "matmul": {"C": ("NI", "NJ"), "A": ("NI", "NK"), "B": ("NK", "NJ")},
    "gemm": {"C": ("NI", "NJ"), "A": ("NI", "NK"), "B": ("NK", "NJ")},
    "dsyrk": {"C": ("NJ", "NJ"), "A": ("NI", "NJ")},
    "dsyr2k": {"C": ("NJ", "NJ"), "A": ("NI", "NJ"), "B": ("NI", "NJ")},
    "trmm": {"B": ("M", "N"), "A": ("M", "M")},
}


def run_time(exe, reps):
    times = []
    for _ in range(reps):
        out = subprocess.run(PIN + [exe], capture_output=True, text=True, check=True,
                             env=dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1"))
        times.append(next(float(w) for w in out.stdout.split() if is_number(w)))
    return statistics.median(times)


def is_number(w):
    try:
        float(w)
        return True
    except ValueError:
        return False


def compile_ok(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode == 0, r.stderr.strip().splitlines()[-1:] if r.stderr else []


def find_clang():
    for c in ("clang-19", "clang"):
        if shutil.which(c):
            return c
    return None


def blas_source(kernel, defs):
    arrays = BLAS_ARRAYS[kernel]
    lines = ["#include <stdio.h>", "#include <stdlib.h>", "#include <time.h>", "#include <cblas.h>"]
    lines += [f"#define {k} {v}" for k, v in defs.items()]
    lines.append("int main(void) {")
    for n, (r, c) in arrays.items():
        lines.append(f"  double *{n} = malloc(sizeof(double) * {r} * {c});")
        lines.append(f"  for (long i = 0; i < (long) {r} * {c}; i++) {n}[i] = (double) ((i * 7 + 1) % 1021) / 1021;")
    lines += ["  struct timespec a, b;", "  clock_gettime(CLOCK_MONOTONIC, &a);", "  " + BLAS[kernel],
              "  clock_gettime(CLOCK_MONOTONIC, &b);",
              '  printf("%.6f\\n", (b.tv_sec - a.tv_sec) + 1e-9 * (b.tv_nsec - a.tv_nsec));', "  return 0;", "}"]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=1500)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--kernels", default="matmul,gemm,dsyrk,dsyr2k,tmm,trmm")
    ap.add_argument("--tss", default=os.path.join(ROOT, "target", "release", "tss"))
    a = ap.parse_args()
    if not os.path.exists(a.tss):
        sys.exit(f"{a.tss}: not built (cargo build --release)")
    clang = find_clang()
    tmp = tempfile.mkdtemp(prefix="tss-ext-")
    inc = ["-I", os.path.join(ROOT, "polybench", "include")]
    polly = bool(clang) and compile_ok([clang, "-O3", "-mllvm", "-polly", "-x", "c", "-c", "-o", os.devnull, "/dev/null"])[0]
    probe = os.path.join(tmp, "probe.c")
    open(probe, "w").write("#include <cblas.h>\nint main(void) { return 0; }\n")
    blas = compile_ok(["cc", probe, "-o", os.path.join(tmp, "probe"), "-lopenblas"])[0]
    if not polly:
        print("note: clang with Polly not found (apt install clang-19 libpolly-19-dev): skipped")
    if not blas:
        print("note: OpenBLAS not found (apt install libopenblas-dev): skipped")
    print(f"sizes {a.size} on every dimension, CFLAGS {' '.join(CFLAGS)}, median of {a.reps}, pinned")
    print("| kernel | tss tile | untiled s | tss s | Polly s | BLAS s | untiled / tss | Polly / tss | BLAS / tss |")
    print("|---|---|---|---|---|---|---|---|---|")
    for k in a.kernels.split(","):
        src = os.path.join(ROOT, "polybench", "paper", f"{k}.c")
        macros = SIZES.get(k, ("NI", "NJ", "NK"))
        defs = {m: a.size for m in macros}
        dflags = [f"-D{m}={v}" for m, v in defs.items()] + ["-DPOLYBENCH_TIME"]
        size_arg = ",".join(f"{m}={v}" for m, v in defs.items())
        tiled = os.path.join(tmp, f"{k}.tiled.c")
        pred = subprocess.run([a.tss, "predict", src, "--size", size_arg, "--mode", "t1", "-o", tiled, "--emit", "defines"],
                              capture_output=True, text=True)
        if pred.returncode != 0:
            print(f"| {k} | tss failed: {pred.stderr.strip()} |")
            continue
        tile = pred.stdout.strip().split()[0].split("=")[1]
        res = {}
        for name, cmd in [("untiled", ["cc", *CFLAGS, *inc, *dflags, src, "-lm"]),
                          ("tss", ["cc", *CFLAGS, *inc, *dflags, tiled, "-lm"])] + \
                         ([("polly", [clang, *CFLAGS, "-mllvm", "-polly", *inc, *dflags, src, "-lm"])] if polly else []):
            exe = os.path.join(tmp, f"{k}.{name}")
            ok, err = compile_ok(cmd + ["-o", exe])
            res[name] = run_time(exe, a.reps) if ok else None
        if blas and k in BLAS:
            csrc = os.path.join(tmp, f"{k}.blas.c")
            open(csrc, "w").write(blas_source(k, defs))
            exe = os.path.join(tmp, f"{k}.blas")
            ok, _ = compile_ok(["cc", "-O2", csrc, "-o", exe, "-lopenblas"])
            res["blas"] = run_time(exe, a.reps) if ok else None
        f = lambda v: "-" if v is None else f"{v:.3f}"
        r = lambda v: "-" if v is None or not res.get("tss") else f"{v / res['tss']:.2f}"
        print(f"| {k} | {tile} | {f(res.get('untiled'))} | {f(res.get('tss'))} | {f(res.get('polly'))} | "
              f"{f(res.get('blas'))} | {r(res.get('untiled'))} | {r(res.get('polly'))} | {r(res.get('blas'))} |")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
