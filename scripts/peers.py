#!/usr/bin/env python3
"""Peer benchmark: tss's code against gcc, Polly and OpenBLAS, in one run.

One driver per kernel: the kernel's own file in polybench/linear-algebra
(its main initialises, times the SCoP with -DPOLYBENCH_TIME and prints the
seconds). Every variant is that file built differently:

  untiled      gcc -O3 -march=native, the loops as written
  tss T:U      `tss tile --tile T --unroll U` (`/pack`: `--pack`; `/vG`: `--vector G`,
               a vector register tile G vectors wide), then gcc as above
  tss predict  `tss predict --mode MODE`: t1 is the model's first choice
               (a cubic tile with the built-in model; with `--model DIR` of
               a corpus model, any config of the space or the untiled
               code), t6-search times the best predictions, then register
               tiles and shapes around the fastest (`--refine`)
  polly        clang-19 -O3 -march=native -mllvm -polly  (when installed)
  openblas     the SCoP replaced by the CBLAS call, 1 thread (when installed)
  pluto        polycc --tile as users run it, and --tile --nounrolljam at
               each of `--pluto-tiles` (tile.sizes), beside tss at the same
               tile without unrolling (when polycc is on PATH); `--no-ivdep`
               adds tss there without its `#pragma GCC ivdep`, and
               `--equal-only` times nothing else (more reps in the same time);
               `--forms` adds tss there in its other loop forms (`/index`,
               `/inline`: `tss tile --form`) and reports the fastest form per
               tile, the choice tss's search makes by measurement

Variants run round-robin, pinned to one core, `--reps` times each; the table
prints the median GF/s and ratios against the untiled code, Polly and
OpenBLAS. Before timing, each variant runs once at a small size and its
arrays are compared with the untiled code's: exactly for tss (tiling keeps
every sum's order; this check builds with -ffp-contract=off, since gcc
contracts a*b+c into FMAs differently in different loop shapes), within
1e-9 relative for the others.

`--search K` also times K configs sampled from tss's config space (tile
size per dimension in 16..512, unroll-and-jam factors 1, 2, 4 or 8 per
outer point loop, packing in half of them, a vector register tile 1-3
vectors wide in a third) and reports the best one found.

Run on a quiet machine: no build may run meanwhile.

  scripts/peers.py                      # all four kernels, fixed configs
  scripts/peers.py --search 24 --reps 5 # plus a sampled search per kernel
"""

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INCLUDE = ROOT / "polybench" / "include"

# name -> (file, sizes, flop count, CBLAS call replacing the SCoP)
KERNELS = {
    "gemm": (
        "linear-algebra/gemm.c",
        {"NI": 1536, "NJ": 1280, "NK": 1792},
        lambda s: 2 * s["NI"] * s["NJ"] * s["NK"],
        "cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, ni, nj, nk, alpha, &A[0][0], NK, "
        "&B[0][0], NJ, beta, &C[0][0], NJ);",
    ),
    "syrk": (
        "linear-algebra/syrk.c",
        {"N": 1536, "M": 1792},
        lambda s: s["N"] * (s["N"] + 1) * s["M"],
        "cblas_dsyrk(CblasRowMajor, CblasLower, CblasNoTrans, n, m, alpha, &A[0][0], M, beta, &C[0][0], N);",
    ),
    "syr2k": (
        "linear-algebra/syr2k.c",
        {"N": 1536, "M": 1792},
        lambda s: 2 * s["N"] * (s["N"] + 1) * s["M"],
        "cblas_dsyr2k(CblasRowMajor, CblasLower, CblasNoTrans, n, m, alpha, &A[0][0], M, &B[0][0], M, "
        "beta, &C[0][0], N);",
    ),
    "trmm": (
        "linear-algebra/trmm.c",
        {"M": 1536, "N": 1280},
        lambda s: s["M"] * (s["M"] - 1) * s["N"],
        "cblas_dtrmm(CblasRowMajor, CblasLeft, CblasLower, CblasTrans, CblasUnit, m, n, alpha, &A[0][0], M, "
        "&B[0][0], N);",
    ),
}
CBLAS = """enum { CblasRowMajor = 101, CblasNoTrans = 111, CblasTrans = 112, CblasLower = 122,
       CblasUnit = 132, CblasLeft = 141 };
void cblas_dgemm(int, int, int, int, int, int, double, const double *, int, const double *, int,
                 double, double *, int);
void cblas_dsyrk(int, int, int, int, int, double, const double *, int, double, double *, int);
void cblas_dsyr2k(int, int, int, int, int, double, const double *, int, const double *, int, double,
                  double *, int);
void cblas_dtrmm(int, int, int, int, int, int, int, double, const double *, int, double *, int);
"""
SMALL = {"NI": 67, "NJ": 53, "NK": 61, "N": 59, "M": 71}
FIXED = ["32", "64", "128", "32:4", "64x256x128:4x1x4", "64x256x128:4x1x4/pack", "256x256x64:4x1x4/pack",
         "256x256x64:8x1x1/pack/v2", "256x256x128:4x1x1/pack/v3"]
CFLAGS = ["-O3", "-march=native"]
# tss's loop forms (`tss tile --form`), the default first.
FORMS = ["stepped", "index", "inline"]
CC = "gcc"  # compiler of the untiled and tss variants (`--cc`)


def die(msg):
    print(f"peers: {msg}", file=sys.stderr)
    sys.exit(1)


def run(cmd, env=None, cwd=None):
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))}: {(r.stderr or r.stdout).strip()[:400]}")
    return r.stdout


def defines(sizes):
    return [f"-D{k}={v}" for k, v in sizes.items()]


class Variant:
    """One build of a kernel: a C file and how to compile it."""

    def __init__(self, name, src, cc, flags, libs=(), env=None, exact=True):
        self.name, self.src, self.cc, self.flags = name, src, cc, list(flags)
        self.libs, self.env, self.exact = list(libs), env, exact
        self.times = []

    def build(self, work, sizes, extra):
        exe = work / re.sub(r"[^A-Za-z0-9_.-]", "_", f"{self.name}-{'-'.join(extra) or 'time'}")
        cmd = [self.cc, *self.flags, f"-I{INCLUDE}", *defines(sizes), *extra, str(self.src), "-o", str(exe), "-lm"]
        run(cmd + self.libs)
        return exe

    def execute(self, exe, cpu):
        env = dict(os.environ, **(self.env or {}))
        pin = ["taskset", "-c", str(cpu)] if shutil.which("taskset") else []
        return run(pin + [str(exe)], env=env)


def numbers(dump):
    """The `%a` numbers of a PolyBench array dump."""
    body = dump.split("begin dump", 1)[-1]
    return [float.fromhex(x) for x in re.findall(r"-?0x[0-9a-f.]+p[-+]\d+", body)]


def agrees(got, want, exact):
    if exact:
        return got == want
    a, b = numbers(got), numbers(want)
    return len(a) == len(b) and all(abs(x - y) <= 1e-9 * max(1.0, abs(y)) for x, y in zip(a, b))


def tss_variant(tss, kernel_src, config, work, extra=()):
    """`tss tile` at a config written as tss writes it:
    `T1xT2xT3[:U1xU2xU3][/nosink][/pack][/vG][/index|/inline]`; `extra` flags of
    `tss tile` join the variant's name."""
    sizes, *flags = config.split("/")
    tiles, _, unroll = sizes.partition(":")
    name = " ".join([f"tss {config}", *(f.lstrip("-") for f in extra)])
    out = work / f"{re.sub(r'[^0-9a-z]', '_', name)}.c"
    cmd = [tss, "tile", str(kernel_src), "--tile", tiles.replace("x", ","), "-o", str(out)]
    if unroll:
        cmd += ["--unroll", unroll.replace("x", ",")]
    for f in flags:
        if f.startswith("v"):
            cmd += ["--vector", f[1:]]
        elif f in ("index", "inline"):
            cmd += ["--form", f]
        else:
            cmd.append({"nosink": "--no-sink", "pack": "--pack"}[f])
    run(cmd + list(extra))
    return Variant(name, out, CC, CFLAGS)


def without_ivdep(v, work):
    """`v` with its `#pragma GCC ivdep` lines removed: what tss's proof
    that the innermost loop carries no dependence is worth (Pluto writes
    `#pragma ivdep`, which gcc ignores)."""
    out = work / f"noivdep-{v.src.name}"
    out.write_text(re.sub(r"^[ \t]*#pragma GCC ivdep\n", "", v.src.read_text(), flags=re.M))
    return Variant(f"{v.name} no-ivdep", out, v.cc, v.flags)


def blas_variant(kernel_src, call, work):
    text = kernel_src.read_text()
    region = re.search(r"^\s*#pragma scop$.*?^\s*#pragma endscop$", text, re.S | re.M)
    if not region:
        die(f"{kernel_src}: no #pragma scop region")
    # Own prototypes, not <cblas.h>: its parameter names (N, M) collide with
    # the size macros given on the command line. The enums pass as ints.
    text = CBLAS + text[: region.start()] + "\n  " + call + "\n" + text[region.end() :]
    out = work / f"blas-{kernel_src.name}"
    out.write_text(text)
    return Variant("openblas", out, "gcc", CFLAGS, ["-lopenblas"], {"OPENBLAS_NUM_THREADS": "1"}, exact=False)


def has_openblas(work):
    probe = work / "probe.c"
    probe.write_text("#include <cblas.h>\nint main(void) { return cblas_ddot(0, 0, 1, 0, 1) != 0; }\n")
    try:
        run(["gcc", str(probe), "-o", str(work / "probe"), "-lopenblas"])
        return True
    except RuntimeError:
        return False


def pluto_variants(kernel_src, work, tiles):
    """polycc --tile as users run it, and --tile --nounrolljam at each of `tiles`."""
    out = []
    runs = [("pluto --tile", ["--tile"], None)]
    runs += [(f"pluto {t} no-uj", ["--tile", "--nounrolljam"], t) for t in tiles]
    for label, flags, sizes in runs:
        d = work / re.sub(r"[^a-z0-9]", "_", label)
        d.mkdir(exist_ok=True)
        src = d / kernel_src.name
        shutil.copy(kernel_src, src)
        if sizes:
            (d / "tile.sizes").write_text("\n".join(cubic(sizes).split("x")) + "\n")
        run(["polycc", src.name, *flags, "-o", "out.c"], cwd=d)
        out.append(Variant(label, d / "out.c", "gcc", CFLAGS))
    return out


def cubic(tile):
    """`64` as `64x64x64`; a shaped `AxBxC` as it is."""
    return tile if "x" in tile else "x".join([tile] * 3)


def equal_tiles(gf, tiles, variant=""):
    """Pluto's time / tss's time at each tile both ran without unrolling (>= 1: tss as fast);
    `variant` names a tss config's suffix (`/inline`), `*` the fastest of the forms."""
    out = []
    for t in tiles:
        p = gf.get(f"pluto {t} no-uj")
        s = max(by_form(gf, t).values(), default=None) if variant == "*" else gf.get(f"tss {t}{variant}")
        if p and s:
            out.append((t, s / p))
    return out


def suffix(form):
    """How a config names loop form `form` (nothing for the default)."""
    return "" if form == FORMS[0] else f"/{form}"


def by_form(gf, t):
    """GF/s of tss at tile `t` per loop form timed."""
    return {f: gf[f"tss {t}{suffix(f)}"] for f in FORMS if f"tss {t}{suffix(f)}" in gf}


def fastest_forms(summary, tiles):
    """Per kernel and tile, the loop form whose median ran fastest."""
    print("| kernel | " + " | ".join(tiles) + " |")
    print("|---|" + "---|" * len(tiles))
    for n, _, gf, _ in summary:
        cells = []
        for t in tiles:
            timed = by_form(gf, t)
            cells.append(max(timed, key=timed.get) if timed else "-")
        print(f"| {n} | " + " | ".join(cells) + " |")


def equal_table(summary, tiles, variant=""):
    """Prints `equal_tiles` per kernel as a table: medians, fastest runs in brackets."""
    print("| kernel | " + " | ".join(tiles) + " |")
    print("|---|" + "---|" * len(tiles))
    for n, _, gf, fastest in summary:
        r, f = (dict(equal_tiles(g, tiles, variant)) for g in (gf, fastest))
        print(f"| {n} | " + " | ".join(f"{r[t]:.2f} ({f[t]:.2f})" if t in r else "-" for t in tiles) + " |")


def sample_configs(k, depth, rng):
    sizes = [16, 32, 48, 64, 96, 128, 192, 256, 384, 512]
    out = set()
    while len(out) < k:
        tiles = "x".join(str(rng.choice(sizes)) for _ in range(depth))
        unroll = "x".join(str(rng.choice([1, 2, 4, 8])) for _ in range(depth))
        pack = "/pack" if rng.random() < 0.5 else ""
        vector = f"/v{rng.choice([1, 2, 3])}" if rng.random() < 1 / 3 else ""
        out.add((f"{tiles}:{unroll}" if set(unroll) != {"1", "x"} else tiles) + pack + vector)
    return sorted(out)


def bench_kernel(name, args, work, have_blas):
    rel, sizes, flops, call = KERNELS[name]
    src = ROOT / "polybench" / rel
    variants = [Variant("untiled", src, CC, CFLAGS)]
    configs = [] if args.equal_only else list(dict.fromkeys(FIXED + (args.configs or [])))
    if args.search:
        configs += sample_configs(args.search, 3, random.Random(args.seed * 1000 + sum(map(ord, name))))
    for c in configs:
        variants.append(tss_variant(args.tss, src, c, work))
    size_arg = ",".join(f"{k}={v}" for k, v in sizes.items())
    for mode in filter(None, "" if args.equal_only else args.predict.split(",")):
        for model in [None] + args.model:
            label = mode if model is None else f"{mode}, {Path(model).name}"
            out = work / f"predict-{label.replace(', ', '-')}-{name}.c"
            extra = [] if model is None else ["--model", model]
            said = run([args.tss, "predict", str(src), "--size", size_arg, "--mode", mode, "--no-cache", "-o", str(out)] + extra)
            print(f"{name}: predict {label}: {said.splitlines()[0] if said else '?'}", flush=True)
            variants.append(Variant(f"tss predict ({label})", out, CC, CFLAGS))
    if shutil.which("clang-19") and not args.equal_only:
        variants.append(Variant("polly", src, "clang-19", CFLAGS + ["-mllvm", "-polly"], exact=False))
    if have_blas and not args.equal_only:
        variants.append(blas_variant(src, call, work))
    if shutil.which("polycc"):
        tiles = args.pluto_tiles.split(",")
        variants += [tss_variant(args.tss, src, t, work) for t in tiles if t not in configs]
        if args.no_ivdep:
            variants += [without_ivdep(tss_variant(args.tss, src, t, work), work) for t in tiles]
        if args.forms:
            variants += [tss_variant(args.tss, src, f"{t}/{f}", work) for t in tiles for f in FORMS[1:]]
        variants += pluto_variants(src, work, tiles)

    small = {k: SMALL[k] for k in sizes}
    check = ["-DPOLYBENCH_DUMP_ARRAYS", "-ffp-contract=off"]
    want = variants[0].execute(variants[0].build(work, small, check), args.cpu)
    exes = []
    for v in variants:
        got = v.execute(v.build(work, small, check), args.cpu)
        if not agrees(got, want, v.exact):
            die(f"{name}: {v.name} prints other arrays than the untiled code at {small}")
        exes.append(v.build(work, sizes, ["-DPOLYBENCH_TIME"]))
    total = args.reps * len(variants)
    for r in range(args.reps):
        for k, (v, exe) in enumerate(zip(variants, exes)):
            print(f"\r{name}: run {r * len(variants) + k + 1}/{total}", end="", file=sys.stderr, flush=True)
            v.times.append(float(v.execute(exe, args.cpu).split()[0]))
    print("\r" + " " * 40 + "\r", end="", file=sys.stderr)
    return variants, flops(sizes)


def report(name, variants, flops):
    gf = {v.name: flops / statistics.median(v.times) / 1e9 for v in variants}
    ref = {k: gf.get(k) for k in ["untiled", "polly", "openblas"]}
    tss = {k: g for k, g in gf.items() if k.startswith("tss ") and "predict" not in k}
    best = max(tss, key=tss.get)
    print(f"\n## {name}\n")
    print("| variant | median s | GF/s | x untiled | / Polly | / OpenBLAS |")
    print("|---|---|---|---|---|---|")
    for v in sorted(variants, key=lambda v: -gf[v.name]):
        g = gf[v.name]
        cells = [f"{g / ref[k]:.2f}" if ref[k] else "-" for k in ["untiled", "polly", "openblas"]]
        mark = " (best tss)" if v.name == best else ""
        print(f"| {v.name}{mark} | {statistics.median(v.times):.3f} | {g:.2f} | {' | '.join(cells)} |")
    # GF/s of each variant's fastest run: on a noisy machine a ratio of
    # minima is steadier than one of medians (interference only slows).
    fastest = {v.name: flops / min(v.times) / 1e9 for v in variants}
    return best, gf, fastest


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernels", default="gemm,syrk,syr2k,trmm", help="comma-separated subset of %(default)s")
    ap.add_argument("--reps", type=int, default=3, help="timed runs per variant (median reported)")
    ap.add_argument("--configs", nargs="*", help="extra tss configs, `T1xT2xT3[:U1xU2xU3][/nosink][/pack][/vG]`")
    ap.add_argument("--search", type=int, default=0, help="also time K sampled tss configs per kernel")
    ap.add_argument("--seed", type=int, default=1, help="seed of the sampled configs")
    ap.add_argument("--predict", default="t1", help="`tss predict --mode` values, comma-separated ('' to skip); t6-search also refines register tiles and shapes")
    ap.add_argument("--model", action="append", default=[], help="also predict with this trained model directory (repeatable)")
    ap.add_argument("--pluto-tiles", default="32,64,128",
                    help="tiles (`64` cubic, or `AxBxC`) at which pluto --nounrolljam and tss without unrolling run")
    ap.add_argument("--equal-only", action="store_true",
                    help="time only the untiled code, and tss and Pluto at `--pluto-tiles` (more reps for the same time)")
    ap.add_argument("--no-ivdep", action="store_true",
                    help="also time tss at `--pluto-tiles` without its `#pragma GCC ivdep` lines")
    ap.add_argument("--forms", action="store_true",
                    help="also time tss at `--pluto-tiles` in its other loop forms (`/index`, `/inline`) and report the fastest")
    ap.add_argument("--cc", default="gcc", help="compiler of the untiled and tss variants (e.g. clang-19)")
    ap.add_argument("--cpu", type=int, default=max(0, (os.cpu_count() or 1) - 1), help="core to pin runs to")
    ap.add_argument("--tss", default=str(ROOT / "target" / "release" / "tss"), help="tss binary")
    args = ap.parse_args()
    global CC
    CC = args.cc
    if not Path(args.tss).exists():
        die(f"{args.tss} not found: run `cargo build --release` first")
    names = args.kernels.split(",")
    for n in names:
        if n not in KERNELS:
            die(f"unknown kernel '{n}' (known: {', '.join(KERNELS)})")
    cpu = run(["sh", "-c", "lscpu | sed -n 's/^Model name: *//p' | head -1"]).strip()
    with tempfile.TemporaryDirectory(prefix="tss-peers-") as tmp:
        work = Path(tmp)
        have_blas = has_openblas(work)
        print(f"# tss peers on {cpu}; {CC} -O3 -march=native, serial, pinned to CPU {args.cpu}; median of {args.reps}")
        print(f"# peers found: polly={'yes' if shutil.which('clang-19') else 'no'}, "
              f"openblas={'yes' if have_blas else 'no'}, pluto={'yes' if shutil.which('polycc') else 'no'}")
        summary = []
        for n in names:
            variants, flops = bench_kernel(n, args, work, have_blas)
            best, gf, fastest = report(n, variants, flops)
            summary.append((n, best, gf, fastest))
        print("\n## summary (GF/s)\n")
        print("| kernel | untiled | tss 32 | best tss (config) | tss predict | Polly | OpenBLAS | best/Polly | best/OpenBLAS |")
        print("|---|---|---|---|---|---|---|---|---|")
        for n, best, gf, _ in summary:
            pred = next((g for k, g in gf.items() if "predict" in k), None)
            cell = lambda x: f"{x:.2f}" if x else "-"  # noqa: E731
            ratio = lambda k: f"{gf[best] / gf[k]:.2f}" if gf.get(k) else "-"  # noqa: E731
            print(f"| {n} | {cell(gf['untiled'])} | {cell(gf.get('tss 32'))} | {gf[best]:.2f} ({best[4:]}) | "
                  f"{cell(pred)} | {cell(gf.get('polly'))} | {cell(gf.get('openblas'))} | {ratio('polly')} | "
                  f"{ratio('openblas')} |")
        tiles = args.pluto_tiles.split(",")
        if any(equal_tiles(gf, tiles) for _, _, gf, _ in summary):
            print("\n## equal tiles, no unrolling: Pluto's time / tss's time (>= 1: tss as fast or faster)")
            print("## medians (in brackets: fastest runs)\n")
            equal_table(summary, tiles)
        if args.forms:
            for f in FORMS[1:]:
                print(f"\n## the same in the {f} form (`{suffix(f)}`): Pluto's time / tss's time, medians (fastest runs)\n")
                equal_table(summary, tiles, suffix(f))
            print("\n## tss's fastest form at each tile, as its search picks: Pluto's time / tss's time, medians (fastest runs)\n")
            equal_table(summary, tiles, "*")
            print("\n## which form that was\n")
            fastest_forms(summary, tiles)
        if args.no_ivdep:
            print("\n## what `#pragma GCC ivdep` is worth: tss's time without it / with it (> 1: it helps)\n")
            print("| kernel | " + " | ".join(tiles) + " |")
            print("|---|" + "---|" * len(tiles))
            for n, _, gf, _ in summary:
                cell = lambda t: f"{gf[f'tss {t}'] / gf[f'tss {t} no-ivdep']:.2f}" if gf.get(f"tss {t} no-ivdep") else "-"  # noqa: E731
                print(f"| {n} | " + " | ".join(cell(t) for t in tiles) + " |")


if __name__ == "__main__":
    main()
