//! End to end: `tss tile` on every kernel in `polybench/`, for tile sizes
//! that divide the extents, do not divide them, exceed them, and differ per
//! dimension, with unroll-and-jam factors 1-8 (odd ones, larger than the
//! tile, mixed per dimension), serial and `--parallel`, each config in one of
//! the three loop forms in turn (stepped, index, inline: `tss tile --form`);
//! the tiled program must print exactly the arrays the original prints.
//!
//! Equality is exact: tiling these kernels never reorders the terms of a
//! floating-point sum (every reduction keeps its order because the
//! dependences between its updates are respected), so no tolerance is used.

mod common;

use std::path::{Path, PathBuf};

use common::root;

use tss::TileOptions;

/// Small, non-square sizes so each run takes milliseconds.
const SIZES: [&str; 8] = ["-DNI=37", "-DNJ=41", "-DNK=29", "-DNL=23", "-DNM=31", "-DM=33", "-DN=39", "-DTSTEPS=5"];
/// Configs as `tss tile --tile T --unroll U` takes them (`T:U`), some
/// packing (`/pack`), some with vector register tiles (`/vG`, the reduction
/// inside blocks of G vectors); `9x5x6:1x4x3` splits trmm's triangular `k`
/// loop, and `9x5x6:1x4x1/v2` and `33x9x17:1x3x1/pack/v1` split it around
/// trmm's vector register tile.
const CONFIGS: [&str; 21] = [
    "1",
    "7",
    "8",
    "32",
    "33",
    "100",
    "16x64x8",
    "7:2",
    "32:4",
    "16x64x8:3x1x5",
    "5:8",
    "33x9x17:1x2x7",
    "7/pack",
    "16x64x8:3x1x5/pack",
    "9x5x6:1x4x3",
    "16x64x8:3x1x5/pack/v2",
    "7:4/v1",
    "64:2/pack/v1",
    "33x9x17:5x1x3/v3",
    "9x5x6:1x4x1/v2",
    "33x9x17:1x3x1/pack/v1",
];

fn kernels() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["paper", "linear-algebra", "stencils", "solvers"] {
        for e in std::fs::read_dir(root().join("polybench").join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "c") {
                out.push(p);
            }
        }
    }
    out.sort();
    assert_eq!(out.len(), 17, "expected the 17 kernels of polybench/");
    out
}

/// Runs `src` at the test sizes and returns the arrays it dumps.
fn compile_and_run(src: &Path, exe: &Path) -> String {
    // Vector register tiles 4 doubles wide (AVX2's width, in generic code on any target).
    let args: Vec<&str> = ["-DPOLYBENCH_DUMP_ARRAYS", "-DTSS_VBYTES=32"].into_iter().chain(SIZES).collect();
    let text = common::compile_and_run(src, exe, &args);
    assert!(text.contains("begin dump"), "{} printed no array", src.display());
    text
}

fn check_kernel(kernel: &Path) {
    let dir = tempfile::tempdir().unwrap();
    let src = std::fs::read_to_string(kernel).unwrap();
    let expected = compile_and_run(kernel, &dir.path().join("orig"));
    for parallel in [false, true] {
        for (k, text) in CONFIGS.iter().enumerate() {
            // Every loop form in turn: the same iterations, spelled three ways.
            let form = tss::Form::ALL[k % 3];
            let config = text.parse::<tss::Config>().unwrap().with_form(form);
            let opts = TileOptions { config, parallel, ..TileOptions::default() };
            let (code, _) = tss::tile_source(kernel, &src, &opts).unwrap_or_else(|e| panic!("{e}"));
            assert!(code.contains("TSS_T1"), "{}: no tiled band", kernel.display());
            if parallel {
                // Time-skewed stencil bands have no parallel member: their tiles run by wavefronts.
                assert!(code.contains("#pragma omp parallel for"), "{}: no parallel loop", kernel.display());
            }
            let tiled = dir.path().join("tiled.c");
            std::fs::write(&tiled, &code).unwrap();
            let got = compile_and_run(&tiled, &dir.path().join("tiled"));
            assert!(
                got == expected,
                "{}: config {text} parallel={parallel} form={form} computes different arrays",
                kernel.display()
            );
        }
    }
}

macro_rules! kernel_tests {
    ($($name:ident => $file:expr),* $(,)?) => {$(
        #[test]
        fn $name() {
            let k = kernels().into_iter().find(|k| k.ends_with($file)).unwrap();
            check_kernel(&k);
        }
    )*};
}

kernel_tests! {
    paper_matmul => "paper/matmul.c",
    paper_gemm => "paper/gemm.c",
    paper_dsyrk => "paper/dsyrk.c",
    paper_dsyr2k => "paper/dsyr2k.c",
    paper_tmm => "paper/tmm.c",
    paper_trmm => "paper/trmm.c",
    la_gemm => "linear-algebra/gemm.c",
    la_syrk => "linear-algebra/syrk.c",
    la_syr2k => "linear-algebra/syr2k.c",
    la_trmm => "linear-algebra/trmm.c",
    la_symm => "linear-algebra/symm.c",
    la_2mm => "linear-algebra/2mm.c",
    la_3mm => "linear-algebra/3mm.c",
    stencil_jacobi_2d => "stencils/jacobi-2d.c",
    stencil_seidel_2d => "stencils/seidel-2d.c",
    solver_lu => "solvers/lu.c",
    solver_cholesky => "solvers/cholesky.c",
}

/// The iterators of the generated loops, outermost first.
fn loop_order(code: &str) -> Vec<&str> {
    code[code.find("/* tss:").unwrap()..]
        .lines()
        .filter_map(|l| l.trim().strip_prefix("for ("))
        .map(|l| l.split(' ').next().unwrap())
        .collect()
}

/// Pluto's structure for matmul: three tile loops outside, point loops i, k, j.
#[test]
fn matmul_has_plutos_structure() {
    let k = root().join("polybench/paper/matmul.c");
    let (code, reports) = tss::tile_source(&k, &std::fs::read_to_string(&k).unwrap(), &TileOptions::default()).unwrap();
    assert_eq!(loop_order(&code), ["i_t", "j_t", "k_t", "i", "k", "j"]);
    let band = &reports[0].bands[0];
    assert!(band.tiled && band.permutable);
    assert!(code.contains("#pragma GCC ivdep\n") && code.contains("C[i][j] += A[i][k] * B[k][j];"));
}

/// Only the tile loop of the band's innermost member stops at its last tile
/// origin (so that constant sizes give the innermost loop a constant trip
/// count); the others keep ISL's bound. Exactness at odd sizes and tiles is
/// `check_kernel`'s.
#[test]
fn the_vector_members_tile_loop_stops_at_its_last_origin() {
    let k = root().join("polybench/paper/matmul.c");
    let (code, _) = tss::tile_source(&k, &std::fs::read_to_string(&k).unwrap(), &TileOptions::default()).unwrap();
    let header = |v: &str| code.lines().find(|l| l.trim().starts_with(&format!("for ({v} ="))).unwrap().to_string();
    assert!(header("j_t").contains("j_t <= TSS_T2 * tss_floord("), "{}", header("j_t"));
    for v in ["i_t", "k_t"] {
        assert!(!header(v).contains("tss_floord"), "{}", header(v));
    }
}

/// In the index form, each tile loop counts tile indices and sets its
/// origin first, as Pluto's tile loops do; the point loops are unchanged.
#[test]
fn index_loops_count_tiles_and_set_origins() {
    let k = root().join("polybench/paper/matmul.c");
    let src = std::fs::read_to_string(&k).unwrap();
    let opts = TileOptions { config: tss::Config::cubic(32).with_form(tss::Form::Index), ..TileOptions::default() };
    let (code, _) = tss::tile_source(&k, &src, &opts).unwrap();
    assert_eq!(loop_order(&code), ["tss_i_t", "tss_j_t", "tss_k_t", "i", "k", "j"]);
    for (k, v) in ["i_t", "j_t", "k_t"].iter().enumerate() {
        let header = format!("for (tss_{v} = 0; tss_{v} <= tss_floord(");
        let at = code.find(&header).unwrap_or_else(|| panic!("no index loop over {v}:\n{code}"));
        let first = code[at..].lines().nth(1).unwrap().trim();
        assert_eq!(first, format!("{v} = TSS_T{} * tss_{v};", k + 1), "{code}");
    }
    let (stepped, _) = tss::tile_source(&k, &src, &TileOptions::default()).unwrap();
    let points = |c: &str| c[c.find("for (i = tss_max(").unwrap()..].to_string();
    assert_eq!(points(&code), points(&stepped));
}

/// The inline form spells loops as Pluto does: tile loops count indices,
/// origins are written inline (no origin variable is left), and point loops
/// end at an inclusive bound whose constant is grouped with the tile size.
/// syr2k's reduction then reads `k <= tss_min(_PB_M - 1, TSS_T3 * tss_k_t +
/// (TSS_T3 - 1))`, the shape in which gcc leaves a full tile's trip count
/// unknown. Exactness is `check_kernel`'s.
#[test]
fn the_inline_form_spells_bounds_as_pluto_does() {
    let k = root().join("polybench/linear-algebra/syr2k.c");
    let src = std::fs::read_to_string(&k).unwrap();
    let opts = TileOptions { config: tss::Config::cubic(32).with_form(tss::Form::Inline), ..TileOptions::default() };
    let (code, _) = tss::tile_source(&k, &src, &opts).unwrap();
    let region = &code[code.find("/* tss:").unwrap()..];
    assert!(
        region.contains(
            "for (k = tss_max(0, TSS_T3 * tss_k_t); k <= tss_min(_PB_M - 1, TSS_T3 * tss_k_t + (TSS_T3 - 1)); k++)"
        ),
        "{region}"
    );
    assert!(region.contains("j <= tss_min(TSS_T2 * tss_j_t + (TSS_T2 - 1), i); j++)"), "{region}");
    // The vector loop's hoisted bound too.
    assert!(region.contains("tss_ub = tss_min(TSS_T2 * tss_j_t + (TSS_T2 - 1), i);"), "{region}");
    for v in ["i_t", "j_t", "k_t"] {
        assert!(!tss_names(region).any(|w| w == v), "{v} is still named:\n{region}");
    }
}

/// The identifiers of C text.
fn tss_names(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).filter(|w| !w.is_empty())
}

/// conv2d's band is `y, x, k, r`; the sums over `s` and `c` stay inside it.
/// The parallel, stride-1 `k` runs below them, where the source had it, so
/// the innermost loop vectorises instead of being a chain of scalar sums;
/// `Config::sink` false keeps it in the band.
#[test]
fn a_parallel_member_runs_below_the_loops_inside_its_band() {
    let k = root().join("corpus/nn/conv2d-nhwc.c");
    let (code, reports) = tss::tile_source(&k, &std::fs::read_to_string(&k).unwrap(), &TileOptions::default()).unwrap();
    let loops = loop_order(&code);
    assert_eq!(loops[loops.len() - 3..], ["s", "c", "k"], "{code}");
    let band = reports[0].bands.iter().find(|b| b.tiled).unwrap();
    assert!(band.sunk && band.coincident[*band.point_order().last().unwrap()]);
    // The other order a config may choose: every point loop above `s, c`.
    let opts = TileOptions { config: tss::Config::cubic(32).with_sink(false), ..TileOptions::default() };
    let (code, reports) = tss::tile_source(&k, &std::fs::read_to_string(&k).unwrap(), &opts).unwrap();
    let loops = loop_order(&code);
    assert_eq!(loops[loops.len() - 2..], ["s", "c"], "{code}");
    let band = reports[0].bands.iter().find(|b| b.tiled).unwrap();
    assert!(!band.sunk && band.orders.sunk.is_some() && band.point_order() == band.orders.plain);
    // Sunk, the other point loops keep the source order (k, c, y above x).
    let n = root().join("corpus/nn/sconv2d-nchw.c");
    let (code, _) = tss::tile_source(&n, &std::fs::read_to_string(&n).unwrap(), &TileOptions::default()).unwrap();
    assert_eq!(loop_order(&code)[4..], ["k", "c", "y", "r", "s", "x"], "{code}");
    // A band that is the whole nest keeps its point loops together.
    let m = root().join("polybench/paper/matmul.c");
    let (_, reports) = tss::tile_source(&m, &std::fs::read_to_string(&m).unwrap(), &TileOptions::default()).unwrap();
    assert!(!reports[0].bands[0].sunk);
}

/// syr2k reads `A[j][k]` and `B[j][k]`: packed, they are stride-1 in `j`,
/// which then runs innermost (the vector loop) instead of the reduction `k`.
/// gemm's `B[k][j]` is stride-1 already: packed as it is, into a contiguous
/// panel; `A[i][k]` is invariant in the vector loop and stays.
#[test]
fn packing_copies_transposed_operands_once_per_tile() {
    let packed = TileOptions { config: "64:4/pack".parse().unwrap(), ..TileOptions::default() };
    let k = root().join("polybench/linear-algebra/syr2k.c");
    let src = std::fs::read_to_string(&k).unwrap();
    // The product's band (members i, j, k; the scaling runs first, alone).
    let order = |r: &[tss::ScopReport]| r[0].bands.last().unwrap().point_order().to_vec();
    let (plain, reports) = tss::tile_source(&k, &src, &TileOptions::default()).unwrap();
    assert_eq!(order(&reports), [0, 1, 2], "{plain}");
    let (code, reports) = tss::tile_source(&k, &src, &packed).unwrap();
    assert_eq!(code.matches("__builtin_malloc").count(), 2, "{code}");
    assert!(code.contains("= A[tss_p0_x0][tss_p0_x1];") && code.contains("= B[tss_p1_x0][tss_p1_x1];"), "{code}");
    assert_eq!(order(&reports), [0, 2, 1], "{code}");
    // A[i][k] moves with i, not j: it keeps reading A.
    assert!(code.contains("A[i][k]") && code.contains("tss_p0[k - tss_p0_l1][j - tss_p0_l0]"), "{code}");
    let g = root().join("polybench/linear-algebra/gemm.c");
    let src = std::fs::read_to_string(&g).unwrap();
    let (code, _) = tss::tile_source(&g, &src, &packed).unwrap();
    assert_eq!(code.matches("__builtin_malloc").count(), 1, "{code}");
    assert!(code.contains("tss_p0[tss_p0_x0 - tss_p0_l0][tss_p0_x1 - tss_p0_l1] = B[tss_p0_x0][tss_p0_x1];"), "{code}");
}

/// gemm's `C[i][j] *= beta` has two loops and nothing feeds it: it runs
/// first, in a band of its own, and the product's tiles are not split at
/// `k == 0`. trmm's `B[i][j] = alpha * B[i][j]` is fed by the sum before it
/// and stays in its band.
#[test]
fn shallow_statements_nothing_feeds_run_first() {
    let g = root().join("polybench/linear-algebra/gemm.c");
    let (code, reports) = tss::tile_source(&g, &std::fs::read_to_string(&g).unwrap(), &TileOptions::default()).unwrap();
    let statements: Vec<&[String]> = reports[0].bands.iter().map(|b| &b.statements[..]).collect();
    assert_eq!(statements, [&["S0".to_string()][..], &["S1".to_string()][..]]);
    assert!(code.find("C[i][j] *= beta;") < code.find("C[i][j] += alpha") && !code.contains("_t >= 1"), "{code}");
    // syrk with its scaling after the sum: fed by it, the scaling stays.
    let k = root().join("tests/fixtures/syrk-post-scaled.c");
    let post = std::fs::read_to_string(&k).unwrap();
    let (code, reports) = tss::tile_source(&k, &post, &TileOptions::default()).unwrap();
    assert_eq!(reports[0].bands.len(), 1, "{:?}", reports[0].bands);
    assert_eq!(reports[0].bands[0].statements.len(), 2);
    let dir = tempfile::tempdir().unwrap();
    let tiled = dir.path().join("tiled.c");
    std::fs::write(&tiled, &code).unwrap();
    assert_eq!(compile_and_run(&tiled, &dir.path().join("tiled")), compile_and_run(&k, &dir.path().join("orig")));
}

/// trmm's `k > i` under a jammed `i`: the copies share `k`'s common range,
/// where the written rows `B[i+o][j]` stay in locals under a guard that the
/// rows read, `B[k+p][j]`, are other rows.
#[test]
fn triangular_loops_split_under_register_tiles() {
    let k = root().join("polybench/linear-algebra/trmm.c");
    let src = std::fs::read_to_string(&k).unwrap();
    let opts = TileOptions { config: "64:1x4x2".parse().unwrap(), ..TileOptions::default() };
    let (code, _) = tss::tile_source(&k, &src, &opts).unwrap();
    assert!(code.contains("i += 4") && code.contains("for (k = tss_lb_k; k < tss_ub_k - 1; k += 2)"), "{code}");
    assert!(code.contains("if ((i + 1) != (k + 1) && ") && code.contains("tss_w3 += tss_r"), "{code}");
    let dir = tempfile::tempdir().unwrap();
    let tiled = dir.path().join("tiled.c");
    std::fs::write(&tiled, &code).unwrap();
    assert_eq!(compile_and_run(&tiled, &dir.path().join("tiled")), compile_and_run(&k, &dir.path().join("orig")));
}

/// trmm's `B[i][j] += A[k][i] * B[k][j]` reads rows of `B` that no row
/// above has updated yet (`k > i`), so the vector register tile loads them
/// from memory while its own rows stay in registers; the triangular `k`
/// range of the jammed rows is split around the tile.
#[test]
fn trmm_reads_rows_not_yet_written_in_a_vector_tile() {
    let k = root().join("polybench/linear-algebra/trmm.c");
    for (text, code) in exact_tilings(&k, &["9x5x6:1x4x1/v2", "256x256x64:1x6x1/pack/v2"]) {
        assert!(tss::codegen::has_vector_tile(&code) && code.contains("int tss_lb_k = "), "{text}: {code}");
        assert!(code.contains("TSS_VLD(&B[k][j])"), "{text}: B[k][j] is not a vector load: {code}");
    }
}

/// `kernel` tiled with each config of `texts`, each checked to print the
/// original's arrays exactly at the tests' sizes: (config, code) pairs.
fn exact_tilings<'t>(kernel: &Path, texts: &[&'t str]) -> Vec<(&'t str, String)> {
    let src = std::fs::read_to_string(kernel).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let expected = compile_and_run(kernel, &dir.path().join("orig"));
    let tiled = dir.path().join("tiled.c");
    let mut out = Vec::new();
    for &text in texts {
        let opts = TileOptions { config: text.parse().unwrap(), ..TileOptions::default() };
        let (code, _) = tss::tile_source(kernel, &src, &opts).unwrap();
        std::fs::write(&tiled, &code).unwrap();
        assert_eq!(compile_and_run(&tiled, &dir.path().join("tiled")), expected, "{text}");
        out.push((text, code));
    }
    out
}

/// A vector register tile runs what its blocks of G vectors leave one
/// vector at a time: at NJ = 41 and 4-double vectors, gemm's 3-vector
/// blocks cover 36 columns, one single vector 4 more, and the plain code
/// the last. Exactness at the tests' sizes is `check_kernel`'s too.
#[test]
fn vector_tiles_finish_with_single_vectors() {
    let k = root().join("polybench/linear-algebra/gemm.c");
    let (_, code) = exact_tilings(&k, &["16x64x8:3x1x5/pack/v3"]).remove(0);
    assert!(code.contains("j += 3 * TSS_VL) {") && code.contains("j += TSS_VL) {"), "{code}");
    assert!(
        code.contains(">= TSS_VL) {") && !code.contains(">= 3 * TSS_VL"),
        "a single vector is enough to enter: {code}"
    );
}

#[test]
fn stencils_are_skewed() {
    for k in ["polybench/stencils/seidel-2d.c", "polybench/stencils/jacobi-2d.c"] {
        let k = root().join(k);
        let (_, reports) =
            tss::tile_source(&k, &std::fs::read_to_string(&k).unwrap(), &TileOptions::default()).unwrap();
        let band = reports[0].bands.iter().find(|b| b.tiled).expect("a tiled band");
        assert_eq!(band.members.len(), 3, "time and both space loops tiled together");
        assert!(
            band.members.iter().any(|m| m.contains("t +") || m.contains("+ t") || m.contains("2t")),
            "{:?}",
            band.members
        );
        assert!(band.wavefront && band.parallel_member.is_none(), "{}: no wavefront", k.display());
    }
}

/// The paper kernels have a parallel tile loop, so they never get a wavefront
/// (their parallel code, which the shipped parallel data timed, is unchanged).
#[test]
fn wavefront_only_without_parallel_member() {
    for k in kernels() {
        let src = std::fs::read_to_string(&k).unwrap();
        let (code, reports) =
            tss::tile_source(&k, &src, &TileOptions { parallel: true, ..TileOptions::default() }).unwrap();
        // Factorisations (lu, cholesky) have no parallel member either: they may use wavefronts.
        if k.parent().unwrap().ends_with("solvers") {
            continue;
        }
        let stencil = k.parent().unwrap().ends_with("stencils");
        assert_eq!(code.contains("tss_w"), stencil, "{}", k.display());
        assert_eq!(reports[0].bands.iter().any(|b| b.wavefront), stencil, "{}", k.display());
    }
}
