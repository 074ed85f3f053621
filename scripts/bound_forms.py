#!/usr/bin/env python3
"""How much gcc's speed for tss's tiled code depends on how loop bounds are spelled.

Issue "Register tiling and tile shapes" asks that tss without unrolling be as
fast as Pluto (`polycc --tile --nounrolljam`) at equal cubic tiles. Where it is
not (syr2k at 64 and 128, gemm at 64 and 128), the inner loops gcc emits are the
same instructions, and the difference follows the *spelling* of equivalent
bounds. This script times, per kernel and tile, Pluto's code against four
spellings of the same tiled loops, all with the same iterations in the same
order (each is checked against tss's default output at odd tile sizes first,
exactly):

  default   `tss tile` as shipped (`--form stepped`): tile loops step origins
            (`i_t += TSS_T1`)
  index     `tss tile --form index`: tile loops count indices, then set
            `i_t = TSS_T1 * tss_i_t;` (Pluto's tile loops are of this kind)
  inline    `tss tile --form inline`: the index form with every origin
            written inline (`TSS_T1 * tss_i_t`, no variable) and point-loop
            upper bounds inclusive with their constants grouped:
            `k <= min(M - 1, TSS_T3 * tss_k_t + (TSS_T3 - 1))`, as Pluto spells them
  unfolded  (rewritten here from `index`) inline, `max(0, origin)` dropped, and
            the constants of those upper bounds left ungrouped,
            `TSS_T3 * tss_k_t + TSS_T3 - 1`: one pair of parentheses apart
  inline-vec-lt  (rewritten here) inline with `max(0, origin)` dropped, but the
            vector loops keep tss's exclusive bound (`j < tss_ub`, `tss_ub =
            min(N, TSS_T2 + TSS_T2 * tss_j_t)`)

Prints Pluto's median seconds and Pluto's time / each variant's time (>= 1: as
fast as Pluto or faster). Needs `polycc` on PATH (README, "Against peers").
Run on a quiet machine: nothing may build meanwhile.

  PATH=/path/to/pluto/bin:$PATH scripts/bound_forms.py --kernels syr2k --tiles 128 --reps 5
  PATH=/path/to/pluto/bin:$PATH scripts/bound_forms.py --cc clang-19 --reps 5   # every variant built by clang
"""

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peers import CFLAGS, KERNELS, ROOT, SMALL, Variant, pluto_variants, run  # noqa: E402

ORIGIN = re.compile(r"^(\s*)(\w+_t) = (TSS_T\d+) \* (tss_\w+_t);$")


def inline(src, group=True, vector_inclusive=True):
    """The index form with origins inline and Pluto-style inclusive upper bounds
    (the vector loops' `tss_ub` too, unless `vector_inclusive` is false)."""
    out, scopes, depth = [], [], 0
    for line in src.split("\n"):
        m = ORIGIN.match(line)
        if m:
            scopes.append((depth, m.group(2), f"{m.group(3)} * {m.group(4)}"))
            continue
        for _, o, r in reversed(scopes):
            line = re.sub(rf"tss_max\(0, {o}\)", o, line)
            line = re.sub(rf"\b{o}\b", r, line)
        out.append(line)
        depth += line.count("{") - line.count("}")
        scopes = [s for s in scopes if depth >= s[0]]
    src = "\n".join(out)
    src = re.sub(r"int ((?:(?!tss_)[a-z]\w*_t, )+)(?=tss_)", "int ", src)
    o = r"(TSS_T\d+ \* tss_\w+_t)"

    def const(t):
        return f"({t} - 1)" if group else f"{t} - 1"

    src = re.sub(rf"\b(\w+) < tss_min\(([^,()]+), (TSS_T\d+) \+ {o}\)",
                 lambda m: f"{m[1]} <= tss_min({m[2]} - 1, {m[4]} + {const(m[3])})", src)
    if vector_inclusive:
        src = re.sub(rf"tss_ub = tss_min\(([^,()]+), (TSS_T\d+) \+ {o}\);",
                     lambda m: f"tss_ub = tss_min({m[1]} - 1, {m[3]} + {const(m[2])});", src)
        src = re.sub(r"(\w+) < tss_ub;", r"\1 <= tss_ub;", src)
    return re.sub(rf"tss_min\((TSS_T\d+) \+ {o} - 1, ", lambda m: f"tss_min({m[2]} + {const(m[1])}, ", src)


def variants(tss, kernel, work):
    """Source file per variant name."""
    src = ROOT / "polybench" / KERNELS[kernel][0]
    files = {}
    for name, flags in [("default", []), ("index", ["--form", "index"]), ("inline", ["--form", "inline"])]:
        files[name] = work / f"{kernel}-{name}.c"
        run([tss, "tile", str(src), *flags, "-o", str(files[name])])
    text = files["index"].read_text()
    for name, group, vec in [("unfolded", False, True), ("inline-vec-lt", True, False)]:
        files[name] = work / f"{kernel}-{name}.c"
        files[name].write_text(inline(text, group, vec))
    return files


def check(files, work, kernel, cc):
    """Every variant, built by `cc`, prints the default's arrays exactly, at odd tile sizes."""
    small = {k: v for k, v in SMALL.items() if k in KERNELS[kernel][1]}
    tiles = ["-DTSS_T1=7", "-DTSS_T2=13", "-DTSS_T3=5"]
    dumps = {}
    for name, f in files.items():
        exe = Variant(f"chk-{kernel}-{name}", f, cc, CFLAGS).build(
            work, small, ["-DPOLYBENCH_DUMP_ARRAYS", "-ffp-contract=off", *tiles])
        r = subprocess.run([str(exe)], capture_output=True, text=True)
        dumps[name] = r.stdout + r.stderr
    for name, d in dumps.items():
        if d != dumps["default"]:
            sys.exit(f"bound_forms: {kernel}: the {name} spelling prints other arrays than the default")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernels", default="gemm,syrk,syr2k,trmm")
    ap.add_argument("--tiles", default="32,64,128")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--cpu", type=int, default=1)
    ap.add_argument("--tss", default=str(ROOT / "target" / "release" / "tss"))
    ap.add_argument("--cc", default="gcc", help="the compiler of every variant, Pluto's too (e.g. clang-19)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="tss-forms-") as tmp:
        work = Path(tmp)
        exes = {}
        tiles = args.tiles.split(",")
        for k in args.kernels.split(","):
            files = variants(args.tss, k, work)
            check(files, work, k, args.cc)
            sizes = KERNELS[k][1]
            (work / k).mkdir()
            # The first is `polycc --tile` as users run it; then one per tile.
            for t, p in zip(tiles, pluto_variants(ROOT / "polybench" / KERNELS[k][0], work / k, tiles)[1:]):
                p.cc = args.cc
                exes[(k, t, "pluto")] = (p, p.build(work / k, sizes, ["-DPOLYBENCH_TIME"]))
                for name, f in files.items():
                    v = Variant(f"x-{k}-{t}-{name}", f, args.cc, CFLAGS)
                    defs = [f"-DTSS_T{n}={t}" for n in (1, 2, 3)]
                    exes[(k, t, name)] = (v, v.build(work, sizes, ["-DPOLYBENCH_TIME", *defs]))
        times = {key: [] for key in exes}
        for _ in range(args.reps):
            for key, (v, exe) in exes.items():
                times[key].append(float(v.execute(exe, args.cpu).split()[0]))
        names = ["default", "index", "inline", "unfolded", "inline-vec-lt"]
        print(f"# Pluto's time / tss's time at equal cubic tiles, {args.cc}, medians of {args.reps} (>= 1: tss as fast)")
        print("| kernel | tile | Pluto (s) | " + " | ".join(names) + " |")
        print("|---|---|---|" + "---|" * len(names))
        for k in args.kernels.split(","):
            for t in tiles:
                p = statistics.median(times[(k, t, "pluto")])
                cells = [f"{p / statistics.median(times[(k, t, n)]):.3f}" for n in names]
                print(f"| {k} | {t} | {p:.3f} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
