//! Tables 3 and 4 of the paper, reproduced from the kernels in `polybench/`.

use std::path::Path;

use super::*;
use crate::{Analysis, analyze};

fn kernel(rel: &str) -> Kernel {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("polybench").join(rel);
    let src = std::fs::read_to_string(&path).unwrap();
    analyze(&path, &src, false).unwrap().kernel
}

fn kernel_src(src: &str) -> Kernel {
    analyze(Path::new("t.c"), src, false).unwrap().kernel
}

fn bits(b: [u8; 6]) -> [bool; 6] {
    b.map(|x| x == 1)
}

#[test]
fn table3_loop_structure() {
    let table = [
        ("matmul", [1, 1, 0, 1, 0, 0]),
        ("tmm", [1, 0, 1, 0, 1, 0]),
        ("dsyrk", [1, 1, 0, 0, 0, 1]),
        ("dsyr2k", [1, 1, 0, 0, 0, 1]),
        ("trmm", [1, 0, 1, 0, 1, 0]),
        ("gemm", [1, 1, 0, 1, 0, 0]),
    ];
    for (name, row) in table {
        let k = kernel(&format!("paper/{name}.c"));
        assert_eq!(k.structure, bits(row), "{name}: loops {:?}", k.loops);
    }
}

fn loc(l: &Locality) -> [u32; 6] {
    [l.rp, l.rnp, l.ri, l.wp, l.wnp, l.wi]
}

#[test]
fn table4_matmul() {
    let k = kernel("paper/matmul.c");
    let intra: Vec<&str> = k.intra.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(intra, ["i", "k", "j"]);
    assert_eq!(k.on, 4);
    assert_eq!(loc(&k.locality[2]), [2, 0, 1, 1, 0, 0]); // L3 (j)
    assert_eq!(loc(&k.locality[1]), [1, 1, 1, 0, 0, 1]); // L2 (k)
    assert_eq!(loc(&k.locality[0]), [0, 2, 1, 0, 1, 0]); // L1 (i)
}

#[test]
fn table4_dsyr2k() {
    let k = kernel("paper/dsyr2k.c");
    let intra: Vec<&str> = k.intra.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(intra, ["i", "j", "k"]);
    assert_eq!(k.on, 6);
    assert_eq!(loc(&k.locality[2]), [3, 0, 2, 1, 0, 0]); // L3 (k)
    assert_eq!(loc(&k.locality[1]), [2, 1, 2, 0, 1, 0]); // L2 (j)
    assert_eq!(loc(&k.locality[0]), [0, 4, 1, 0, 0, 1]); // L1 (i)
}

#[test]
fn every_row_has_on_minus_one_reads() {
    for name in ["matmul", "gemm", "dsyrk", "dsyr2k", "tmm", "trmm"] {
        let k = kernel(&format!("paper/{name}.c"));
        for l in &k.locality {
            assert_eq!(l.rp + l.rnp + l.ri, k.on - 1, "{name}");
            assert_eq!(l.wp + l.wnp + l.wi, 1, "{name}");
        }
    }
}

#[test]
fn permuted_matmul_gets_its_own_intra_tile_order() {
    // j, k, i source order: i is no longer the outer loop; the stride-1 loop
    // j still goes innermost, and the rest keep source order (k, i).
    let src = "#pragma scop\nfor (j = 0; j < NJ; j++)\n for (k = 0; k < NK; k++)\n  for (i = 0; i < NI; i++)\n   C[i][j] += A[i][k] * B[k][j];\n#pragma endscop\n";
    let k = kernel_src(src);
    let intra: Vec<&str> = k.intra.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(intra, ["k", "i", "j"]);
    assert_eq!(loc(&k.locality[2]), [2, 0, 1, 1, 0, 0]); // j innermost, as in matmul
    assert_eq!(loc(&k.locality[1]), [0, 2, 1, 0, 1, 0]); // i
    assert_eq!(loc(&k.locality[0]), [1, 1, 1, 0, 0, 1]); // k
    let loops: Vec<&str> = k.loops.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(loops, ["j", "k", "i"]);
}

#[test]
fn extents_follow_tile_loop_order() {
    let k = kernel("paper/dsyr2k.c");
    let sizes = Sizes::resolve(&k.params, &Sizes::parse_pairs("NI=1500,NJ=1300").unwrap()).unwrap();
    assert_eq!(k.extents(&sizes).unwrap(), [1500, 1300, 1300]);
    let k = kernel("paper/tmm.c");
    let sizes = Sizes::resolve(&k.params, &Sizes::parse_pairs("NI=1100,NJ=1300,NK=1200").unwrap()).unwrap();
    assert_eq!(k.extents(&sizes).unwrap(), [1100, 1300, 1200]);
}

#[test]
fn candidates_follow_eq_1_2() {
    let c = Caches { l1d: 32 << 10, l2: 256 << 10, line: 64 };
    // sqrt(256K / 8) = 181 -> 22 multiples of 8 when the nest is large.
    let v = candidates(&[1500, 1300, 1100], &c);
    assert_eq!((v.len(), v[0], *v.last().unwrap()), (22, 8, 176));
    // Small extents cap the tile at half the smallest one.
    assert_eq!(candidates(&[100, 40, 1000], &c), vec![8, 16]);
    assert_eq!(candidates(&[3, 3, 3], &c), vec![8]);
    let c = Caches { l2: 1 << 20, ..c };
    assert_eq!(candidates(&[1500, 1300, 1100], &c).len(), 45);
}

#[test]
fn vectors_have_the_set_length_and_order() {
    let k = kernel("paper/matmul.c");
    let c = Caches::PAPER;
    let v = k.vector(FeatureSet::Paper, &Shape::of_extents([1500, 1300, 1100]), Some(&Config::cubic(64)), &c);
    assert_eq!(v.len(), 29);
    assert_eq!(&v[..4], &[1500.0, 1300.0, 1100.0, 64.0]);
    assert_eq!(v[28], 4.0);
    let e = k.vector(
        FeatureSet::Extended,
        &Shape::of_extents([1500, 1300, 1100]),
        Some(&Config::tiled(vec![16, 64, 8])),
        &c,
    );
    assert_eq!(e.len(), FeatureSet::Extended.len());
    assert_eq!(&e[29..32], &[16.0, 64.0, 8.0]);
    // Working set of a 16x64x8 matmul tile: C 16x64 + A 16x8 + B 8x64 doubles.
    assert_eq!(k.working_set(&[16, 64, 8]), (16 * 64 + 16 * 8 + 8 * 64) * 8);
}

#[test]
fn other_kernels_get_full_vectors() {
    for rel in [
        "linear-algebra/gemm.c",
        "linear-algebra/2mm.c",
        "linear-algebra/3mm.c",
        "linear-algebra/symm.c",
        "linear-algebra/trmm.c",
        "stencils/jacobi-2d.c",
        "stencils/seidel-2d.c",
    ] {
        let k = kernel(rel);
        let pairs: Vec<(String, i64)> = k.params.iter().map(|p| (p.clone(), 200)).collect();
        let sizes = Sizes::resolve(&k.params, &pairs).unwrap();
        let ps = k.extents(&sizes).unwrap();
        assert!(ps.iter().all(|&p| p >= 1), "{rel}: {ps:?}");
        let v = k.vector(FeatureSet::Extended, &Shape::of_extents(ps), Some(&Config::cubic(32)), &Caches::PAPER);
        assert!(v.iter().all(|x| x.is_finite()), "{rel}: {v:?}");
    }
    // PolyBench gemm: the features describe the += statement, not *= beta.
    let k = kernel("linear-algebra/gemm.c");
    assert_eq!(k.on, 4);
}

#[test]
fn shallow_nest_is_padded() {
    let src = "#pragma scop\nfor (i = 0; i < N; i++)\n  x[i] = y[i] + 1;\n#pragma endscop\n";
    let k = kernel_src(src);
    assert_eq!(k.loops[0].member, None);
    let sizes = Sizes::resolve(&k.params, &[("N".into(), 100)]).unwrap();
    assert_eq!(k.extents(&sizes).unwrap(), [1, 1, 100]);
}

#[test]
fn the_scop_set_describes_outer_members_the_untiled_code_and_vectors() {
    // conv2d-nchw: a 6-deep nest (k, c, r, s, y, x) whose tiled band has 4
    // members; the three feature loops leave one outside, whose extent and
    // tile count only the scop set sees.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/nn/conv2d-nchw.c");
    let a = analyze(&path, &std::fs::read_to_string(&path).unwrap(), false).unwrap();
    let sizes = Sizes::parse(&a.scop.params, "K=64,C=32,H=56,W=56,R=3,S=3").unwrap();
    let shape = a.shape(&sizes, 256, 1).unwrap();
    assert_eq!(shape.members.len(), 4, "{shape:?}");
    let names = FeatureSet::Scop.names();
    let at = |v: &[f64], n: &str| v[names.iter().position(|x| *x == n).unwrap()];
    let c = Caches::PAPER;
    let small = a.kernel.vector(FeatureSet::Scop, &shape, Some(&Config::cubic(8)), &c);
    let big = a.kernel.vector(FeatureSet::Scop, &shape, Some(&Config::cubic(64)), &c);
    let untiled = a.kernel.vector(FeatureSet::Scop, &shape, None, &c);
    assert_eq!(small.len(), FeatureSet::Scop.len());
    assert_eq!(
        &small[..FeatureSet::Registers.len()],
        &a.kernel.vector(FeatureSet::Registers, &shape, Some(&Config::cubic(8)), &c)[..]
    );
    assert_eq!((at(&small, "UNTILED"), at(&untiled, "UNTILED")), (0.0, 1.0));
    assert_eq!((at(&small, "DEPTH"), at(&small, "ELEM_BYTES")), (4.0, a.kernel.element_bytes as f64));
    assert!(at(&small, "LOG_OUTER") > 0.0 && at(&small, "LOG_OUTER") == at(&big, "LOG_OUTER"));
    // Bigger tiles, fewer outer tiles; untiled, one.
    assert!(at(&small, "LOG_OUTER_TILES") > at(&big, "LOG_OUTER_TILES"));
    assert_eq!(at(&untiled, "LOG_OUTER_TILES"), 0.0);
    // The innermost tile in 4-double vectors: ln(1 + 8/4) at tile 8 (x is 56 long).
    assert!((at(&small, "VEC_TILE") - 3f64.ln()).abs() < 1e-9 || a.kernel.element_bytes != 8);
    assert!(at(&big, "VEC_TILE") > at(&small, "VEC_TILE"));
    assert!((at(&small, "LOG_WORK") - a.work(&sizes).unwrap().ln()).abs() < 1e-9);
}

#[test]
fn the_traffic_set_prices_data_movement_of_real_kernels() {
    // gemm-ikj at 512^3 on a 32 KiB L1 / 512 KiB L2 machine: a 64-tile cuts
    // L2 traffic well below the untiled code's, a 512-tile (6 MiB of tiles)
    // does not; the data touched is the same for every config.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/blas/gemm-ikj.c");
    let a = analyze(&path, &std::fs::read_to_string(&path).unwrap(), false).unwrap();
    let sizes = Sizes::parse(&a.scop.params, "NI=512,NJ=512,NK=512").unwrap();
    let shape = a.shape(&sizes, 256, 1).unwrap();
    let names = FeatureSet::Traffic.names();
    let at = |v: &[f64], n: &str| v[names.iter().position(|x| *x == n).unwrap()];
    let c = Caches { l1d: 32 << 10, l2: 512 << 10, line: 64 };
    let v = |cfg: Option<Config>| a.kernel.vector(FeatureSet::Traffic, &shape, cfg.as_ref(), &c);
    let (untiled, t64, t512) = (v(None), v(Some(Config::cubic(64))), v(Some(Config::cubic(512))));
    assert_eq!(t64.len(), FeatureSet::Traffic.len());
    assert_eq!(
        &t64[..FeatureSet::Scop.len()],
        &a.kernel.vector(FeatureSet::Scop, &shape, Some(&Config::cubic(64)), &c)[..]
    );
    assert!(at(&t64, "LOG_TRAFFIC_L2") < at(&untiled, "LOG_TRAFFIC_L2") - 1.0, "{t64:?}\n{untiled:?}");
    assert!(at(&t64, "LOG_TRAFFIC_L2") < at(&t512, "LOG_TRAFFIC_L2"));
    // L1 holds less than L2: it always loads at least as much.
    for x in [&untiled, &t64, &t512] {
        assert!(at(x, "LOG_TRAFFIC_L1") >= at(x, "LOG_TRAFFIC_L2"));
        assert!(at(x, "LOG_TRAFFIC_L2") >= at(x, "LOG_DATA") - 1e-9);
    }
    // Three 512^2 double matrices over 512^3 instances: 3 * 8 / 512 bytes each.
    assert!((at(&t64, "LOG_DATA") - (24.0f64 / 512.0).ln()).abs() < 1e-9);
    assert_eq!(at(&t64, "LOG_DATA"), at(&untiled, "LOG_DATA"));
}

#[test]
fn the_sink_set_tells_the_two_loop_orders_apart() {
    // sconv2d-nchw: the band k, c, y, x leaves r, s (R = 3, S = 5) inside
    // it; sunk, x runs below them. Kept in the band, the intra-tile order
    // differs and the kernel is seen through it.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/nn/sconv2d-nchw.c");
    let a = analyze(&path, &std::fs::read_to_string(&path).unwrap(), false).unwrap();
    assert!(a.can_sink());
    let sizes = Sizes::parse(&a.scop.params, "K=23,C=125,R=3,S=5,H=216,W=30").unwrap();
    let shape = a.shape(&sizes, 256, 1).unwrap();
    let names = FeatureSet::Sink.names();
    let at = |v: &[f64], n: &str| v[names.iter().position(|x| *x == n).unwrap()];
    let c = Caches::PAPER;
    let v = |cfg: Option<Config>| a.kernel.vector(FeatureSet::Sink, &shape, cfg.as_ref(), &c);
    let (sunk, kept, untiled) = (v(Some(Config::cubic(64))), v(Some(Config::cubic(64).with_sink(false))), v(None));
    assert_eq!(sunk.len(), FeatureSet::Sink.len());
    assert_eq!((at(&sunk, "SUNK"), at(&kept, "SUNK"), at(&untiled, "SUNK")), (1.0, 0.0, 0.0));
    // 15 iterations of r, s below each point of the band.
    assert!((at(&sunk, "LOG_BELOW") - 15f64.ln()).abs() < 1e-6, "{}", at(&sunk, "LOG_BELOW"));
    assert_eq!(
        &sunk[..FeatureSet::Traffic.len()],
        &a.kernel.vector(FeatureSet::Traffic, &shape, Some(&Config::cubic(64)), &c)[..]
    );
    // Both orders end the band's point loops with x: only the new columns
    // say that x runs below r, s in one of them.
    assert_eq!(&sunk[..FeatureSet::Traffic.len()], &kept[..FeatureSet::Traffic.len()]);
    // A kernel whose band is the whole nest has one order: the bit stays 0.
    let m = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/blas/gemm-ikj.c");
    let g = analyze(&m, &std::fs::read_to_string(&m).unwrap(), false).unwrap();
    let shape = g.shape(&Sizes::parse(&g.scop.params, "NI=64,NJ=64,NK=64").unwrap(), 256, 1).unwrap();
    let v = g.kernel.vector(FeatureSet::Sink, &shape, Some(&Config::cubic(32)), &c);
    assert!(!g.can_sink() && at(&v, "SUNK") == 0.0 && at(&v, "LOG_BELOW").abs() < 1e-9);
}

#[test]
fn the_conflict_set_sees_syrks_column_share_two_l1_sets_at_m_1792() {
    // With its scaling after the accumulation, syrk runs i, k, j inside a
    // tile: the vector loop j walks down the column A[j][k]. Rows 1792
    // doubles apart (14336 bytes) alternate between 2 of 64 sets, so a
    // 32-row column asks 16 lines of an 8-way set; 1500 doubles apart
    // spread over the sets.
    let c = Caches { l1d: 32 << 10, l2: 512 << 10, line: 64 };
    let conflicts = |a: &Analysis, sizes: &str, cfg: Option<Config>| {
        let shape = a.shape(&Sizes::parse(&a.scop.params, sizes).unwrap(), 256, 1).unwrap();
        let v = a.kernel.vector(FeatureSet::Conflict, &shape, cfg.as_ref(), &c);
        assert_eq!(v.len(), FeatureSet::Conflict.len());
        assert_eq!(&v[..FeatureSet::Sink.len()], &a.kernel.vector(FeatureSet::Sink, &shape, cfg.as_ref(), &c)[..]);
        let names = FeatureSet::Conflict.names();
        let at = |n: &str| v[names.iter().position(|x| *x == n).unwrap()];
        (at("CONFLICT_1"), at("CONFLICT_2"))
    };
    let syrk = post_scaled_syrk();
    assert_eq!(syrk.report.bands.last().unwrap().orders.plain, [0, 2, 1]);
    assert_eq!(conflicts(&syrk, "N=1536,M=1792", Some(Config::cubic(32))), (1.0, 1.0));
    assert_eq!(conflicts(&syrk, "N=1536,M=1792", Some(Config::cubic(128))).0, 1.0);
    // 16 rows fill the two sets' 8 ways: nothing beyond capacity.
    assert_eq!(conflicts(&syrk, "N=1536,M=1792", Some(Config::cubic(16))), (0.0, 0.0));
    assert_eq!(conflicts(&syrk, "N=1200,M=1500", Some(Config::cubic(32))), (0.0, 0.0));
    // The untiled code walks the whole column: beyond the L1 anyway.
    assert_eq!(conflicts(&syrk, "N=1536,M=1792", None), (0.0, 0.0));
    // PolyBench's syrk (its scaling cut off in front) and the corpus's
    // syrk-upper run i, j, k: k walks rows, and the 32x32 block of A that
    // j and k sweep is what shares the two sets.
    for rel in ["polybench/linear-algebra/syrk.c", "corpus/blas/syrk-upper.c"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
        let a = analyze(&path, &std::fs::read_to_string(&path).unwrap(), false).unwrap();
        assert_eq!(conflicts(&a, "N=1536,M=1792", Some(Config::cubic(32))), (0.0, 1.0), "{rel}");
    }
}

/// syrk with the scaling by beta after the sum (a test fixture). Fed by it,
/// the scaling stays in the band rather than running first, and its two
/// references to `C[i][j]` make `j` the band's innermost point loop.
fn post_scaled_syrk() -> Analysis {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/syrk-post-scaled.c");
    analyze(&path, &std::fs::read_to_string(&path).unwrap(), false).unwrap()
}

#[test]
fn the_pack_set_counts_the_copied_references_and_clears_their_conflicts() {
    // The post-scaled syrk packs the column A[j][k] (read-only, reused
    // across i): packed, the conflicts of that walk are gone.
    let a = post_scaled_syrk();
    let shape = a.shape(&Sizes::parse(&a.scop.params, "N=1536,M=1792").unwrap(), 256, 1).unwrap();
    let c = Caches { l1d: 32 << 10, l2: 512 << 10, line: 64 };
    let names = FeatureSet::Pack.names();
    let at = |v: &[f64], n: &str| v[names.iter().position(|x| *x == n).unwrap()];
    let v = |cfg: Option<Config>| a.kernel.vector(FeatureSet::Pack, &shape, cfg.as_ref(), &c);
    let (plain, packed, untiled) = (v(Some(Config::cubic(32))), v(Some(Config::cubic(32).with_pack(true))), v(None));
    assert_eq!(plain.len(), FeatureSet::Pack.len());
    assert_eq!((at(&plain, "PACKED"), at(&untiled, "PACKED")), (0.0, 0.0));
    assert!(at(&packed, "PACKED") >= 1.0, "{packed:?}");
    assert_eq!((at(&plain, "CONFLICT_1"), at(&packed, "CONFLICT_1")), (1.0, 0.0));
    assert_eq!(
        &plain[..FeatureSet::Conflict.len()],
        &a.kernel.vector(FeatureSet::Conflict, &shape, Some(&Config::cubic(32)), &c)[..]
    );
    // gemv's A[i][j] is read once: nothing to pack, and /pack changes nothing.
    let g = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/blas/gemv.c");
    let g = analyze(&g, &std::fs::read_to_string(&g).unwrap(), false).unwrap();
    let shape = g.shape(&Sizes::parse(&g.scop.params, "M=300,N=400").unwrap(), 256, 1).unwrap();
    let gv = |cfg: Config| g.kernel.vector(FeatureSet::Pack, &shape, Some(&cfg), &c);
    assert_eq!(gv(Config::cubic(32)), gv(Config::cubic(32).with_pack(true)));
}

#[test]
fn the_vector_set_describes_the_vector_tile_and_nothing_else() {
    // matmul (i, k, j): rows on i, the reduction k, vectors along j.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("polybench/paper/matmul.c");
    let a = analyze(&path, &std::fs::read_to_string(&path).unwrap(), false).unwrap();
    let c = Caches { l1d: 32 << 10, l2: 512 << 10, line: 64 };
    let names = FeatureSet::Vector.names();
    let at = |v: &[f64], n: &str| v[names.iter().position(|x| *x == n).unwrap()];
    let tile: Config = "128x128x64:4x1x1/pack/v3".parse().unwrap();
    for (bits, fill) in [(256, (4.0 * 3.0 + 3.0) / 16.0), (512, (4.0 * 3.0 + 3.0) / 32.0)] {
        let shape = a.shape(&Sizes::parse(&a.scop.params, "NI=500,NJ=400,NK=300").unwrap(), bits, 1).unwrap();
        let v = |cfg: Option<&Config>| a.kernel.vector(FeatureSet::Vector, &shape, cfg, &c);
        let vt = v(Some(&tile));
        assert_eq!(vt.len(), FeatureSet::Vector.len());
        assert_eq!((at(&vt, "V_GROUPS"), at(&vt, "V_ROWS"), at(&vt, "V_FILL")), (3.0, 4.0, fill), "{bits} bits");
        let plain = v(Some(&tile.with_vector(0)));
        for (n, x) in [("V_GROUPS", 0.0), ("V_ROWS", 0.0), ("V_FILL", 0.0)] {
            assert_eq!((at(&plain, n), at(&v(None), n)), (x, x), "{n} of a plain config and the untiled code");
        }
        // The narrower sets cannot tell the two apart: only this set ranks vector tiles.
        let pack = FeatureSet::Pack.len();
        assert_eq!(vt[..pack], plain[..pack]);
        assert_eq!(&vt[..pack], &a.kernel.vector(FeatureSet::Pack, &shape, Some(&tile), &c)[..]);
    }
}

#[test]
fn the_untiled_gate_sees_the_loop_the_original_runs_innermost() {
    // matmul i, j, k: tiled, `j` runs innermost (stride 1 for C and B); the
    // original runs `k` innermost, where B strides by a row.
    let k = kernel("paper/matmul.c");
    assert_eq!(k.intra[2].name, "j");
    assert_eq!(loc(&k.untiled_inner), [1, 1, 1, 0, 0, 1]);
    let shape = Shape::of_extents([1000, 1000, 1000]);
    let t = k.untiled_traits(&shape, &Caches::PAPER);
    assert_eq!((t.unit, t.other), (1, 1));
    // A matrix-vector product over j: both reads at stride 1, no reuse of A.
    let mv = kernel_src(
        "#pragma scop\nfor (i = 0; i < N; i++) for (j = 0; j < M; j++) y[i] = y[i] + A[i][j] * x[j];\n#pragma endscop\n",
    );
    let t = mv.untiled_traits(&Shape::of_extents([1, 4000, 3000]), &Caches::PAPER);
    assert_eq!((t.unit, t.other), (2, 0));
    assert!(t.log_data > k.untiled_traits(&shape, &Caches::PAPER).log_data, "A is read once: more data per instance");
}

#[test]
fn the_parallel_set_counts_the_units_the_threads_share() {
    // matmul: `omp parallel for` on the tile loop of `i` (NI = 500).
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("polybench/paper/matmul.c");
    let a = analyze(&path, &std::fs::read_to_string(&path).unwrap(), true).unwrap();
    let c = Caches { l1d: 32 << 10, l2: 512 << 10, line: 64 };
    let names = FeatureSet::Parallel.names();
    let at = |v: &[f64], n: &str| v[names.iter().position(|x| *x == n).unwrap()];
    let sizes = Sizes::parse(&a.scop.params, "NI=500,NJ=400,NK=300").unwrap();
    let two = a.shape(&sizes, 512, 2).unwrap();
    let par = |shape: &Shape, cfg: Option<&str>| {
        let cfg: Option<Config> = cfg.map(|s| s.parse().unwrap());
        let v = a.kernel.vector(FeatureSet::Parallel, shape, cfg.as_ref(), &c);
        assert_eq!(v.len(), FeatureSet::Parallel.len());
        (at(&v, "LOG_THREADS"), at(&v, "LOG_PAR_UNITS"), at(&v, "PAR_IDLE"))
    };
    let ln2 = 2f64.ln();
    // One tile of all 500 rows: one thread works, the other waits.
    assert_eq!(par(&two, Some("512x32x32")), (ln2, 1f64.ln_1p(), 0.5));
    // 3 tiles on 2 threads: 2 rounds of 2 slots, one idle.
    assert_eq!(par(&two, Some("200x32x32")), (ln2, 3f64.ln_1p(), 0.25));
    assert_eq!(par(&two, Some("250x8x8:4x1x1")), (ln2, 2f64.ln_1p(), 0.0));
    // The untiled code runs its outer loop, `i`, in parallel: 500 rows.
    assert_eq!(par(&two, None), (ln2, 500f64.ln_1p(), 0.0));
    // Serial: one thread, nothing idle, the same units.
    let one = a.shape(&sizes, 512, 1).unwrap();
    assert_eq!(par(&one, Some("512x32x32")), (0.0, 1f64.ln_1p(), 0.0));
    // The narrower sets are a prefix.
    let v = a.kernel.vector(FeatureSet::Parallel, &two, Some(&Config::cubic(32)), &c);
    assert_eq!(
        &v[..FeatureSet::Vector.len()],
        &a.kernel.vector(FeatureSet::Vector, &two, Some(&Config::cubic(32)), &c)[..]
    );

    // jacobi-1d has no parallel member: wavefronts of the tiles of `t` and
    // the skewed `c`, the widest as wide as the fewer tiles of the two.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/stencils/jacobi-1d.c");
    let j = analyze(&path, &std::fs::read_to_string(&path).unwrap(), true).unwrap();
    let shape = j.shape(&Sizes::parse(&j.scop.params, "T=100,N=1000").unwrap(), 512, 2).unwrap();
    let v = j.kernel.vector(FeatureSet::Parallel, &shape, Some(&"50x64".parse().unwrap()), &c);
    assert_eq!(at(&v, "LOG_PAR_UNITS"), 2f64.ln_1p(), "t: 100 / 50 = 2 tiles, fewer than c's");
}

#[test]
fn a_recurrent_original_is_threaded_only_where_its_outer_loop_spreads() {
    // iir-rows filters each row along `j` (a recurrence) and runs its batch
    // loop in parallel; seidel-1d's time loop carries a dependence, so its
    // original runs on one thread whatever the mode.
    let c = Caches::PAPER;
    let traits = |file: &str, sizes: &str, threads: usize| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let a = analyze(&path, &std::fs::read_to_string(&path).unwrap(), threads > 1).unwrap();
        let shape = a.shape(&Sizes::parse(&a.scop.params, sizes).unwrap(), 512, threads).unwrap();
        a.kernel.untiled_traits(&shape, &c)
    };
    let iir = traits("corpus/recur/iir-rows.c", "NB=8,H=300,W=200", 2);
    assert!(iir.recurrent() && iir.threaded && iir.never_first().is_none());
    let serial = traits("corpus/recur/iir-rows.c", "NB=8,H=300,W=200", 1);
    assert!(!serial.threaded && serial.never_first().is_some(), "one thread: the recurrence costs");
    let seidel = traits("corpus/recur/seidel-1d.c", "T=20,N=1000", 2);
    assert!(seidel.recurrent() && !seidel.threaded && seidel.never_first().is_some());
}

#[test]
fn the_source_set_describes_the_untiled_loops_and_the_skew() {
    let c = Caches { l1d: 32 << 10, l2: 512 << 10, line: 64 };
    let names = FeatureSet::Source.names();
    let cols = |a: &Analysis, sizes: &str, cfg: Option<&str>| {
        let shape = a.shape(&Sizes::parse(&a.scop.params, sizes).unwrap(), 512, 1).unwrap();
        let cfg: Option<Config> = cfg.map(|s| s.parse().unwrap());
        let v = a.kernel.vector(FeatureSet::Source, &shape, cfg.as_ref(), &c);
        assert_eq!(v.len(), FeatureSet::Source.len());
        assert_eq!(
            &v[..FeatureSet::Parallel.len()],
            &a.kernel.vector(FeatureSet::Parallel, &shape, cfg.as_ref(), &c)[..]
        );
        ["SRC_UNIT", "SRC_STRIDED", "SRC_REDUCTIONS", "SKEWED"].map(|n| v[names.iter().position(|x| *x == n).unwrap()])
    };
    let load = |rel: &str| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
        analyze(&path, &std::fs::read_to_string(&path).unwrap(), false).unwrap()
    };
    // matmul runs k innermost as written: A[i][k] at stride 1, B[k][j]
    // strided, C[i][j] a reduction; i, j, k are tiled unskewed. Every config
    // of the kernel, and the untiled row, carries the same columns.
    let m = load("polybench/paper/matmul.c");
    assert_eq!(cols(&m, "NI=500,NJ=400,NK=300", Some("64x32x16:4x1x1")), [1.0, 1.0, 1.0, 0.0]);
    assert_eq!(cols(&m, "NI=500,NJ=400,NK=300", None), [1.0, 1.0, 1.0, 0.0]);
    // jacobi-1d's band tiles the time loop and a skewed space loop.
    let j = load("corpus/stencils/jacobi-1d.c");
    let [.., skewed] = cols(&j, "T=100,N=1000", Some("50x64"));
    assert!(skewed >= 1.0, "jacobi-1d's space member is skewed by time");
}

/// rand-70 runs `A[j] += B[i]` (the dominant statement) and `C[i][k] +=
/// D[k][i]` in two tiled bands; packing copies `D` of the second only.
#[test]
fn the_bands_set_sees_what_a_config_does_to_the_other_band() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/random/rand-70.c");
    let a = analyze(&path, &std::fs::read_to_string(&path).unwrap(), false).unwrap();
    let shape = a.shape(&Sizes::parse(&a.scop.params, "NI=300,NJ=200,NK=250").unwrap(), 256, 1).unwrap();
    let caches = Caches { l1d: 32 << 10, l2: 1 << 20, line: 64 };
    let source = FeatureSet::Source.len();
    let v = |set: FeatureSet, tile: &str| {
        let config = tile.parse::<crate::harness::Variant>().unwrap().feature_config(a.tile_dims());
        a.kernel.vector(set, &shape, config.as_ref(), &caches)
    };
    let col = |row: &[f64], name: &str| row[FeatureSet::Bands.names().iter().position(|n| *n == name).unwrap()];
    for tile in ["untiled", "32x32x32", "64x16x128:2x1x4", "32x32x32/pack"] {
        let wide = v(FeatureSet::Bands, tile);
        assert_eq!(wide.len(), FeatureSet::Bands.len());
        assert_eq!(&wide[..source], &v(FeatureSet::Source, tile)[..], "{tile}: the source prefix");
        let share = col(&wide, "R_SHARE");
        assert!((share - 300.0 * 200.0 * 250.0 / (2.0 * 300.0 * 200.0 * 250.0 + 200.0)).abs() < 1e-9, "{share}");
    }
    let (plain, packed) = (v(FeatureSet::Bands, "32x32x32"), v(FeatureSet::Bands, "32x32x32/pack"));
    assert_eq!(&plain[..source], &packed[..source], "the dominant statement's band packs nothing");
    assert_eq!((col(&plain, "R_PACKED"), col(&packed, "R_PACKED")), (0.0, 1.0));
    // A tile twice as large along every member: the runner-up's working set grows.
    let big = v(FeatureSet::Bands, "64x64x64");
    assert!(col(&big, "R_WS_L2") > 2.0 * col(&plain, "R_WS_L2"));
    assert!(col(&big, "R_LOG_INNER") > col(&plain, "R_LOG_INNER"));
    // Tiles beyond a loop's extent count as the whole loop.
    assert_eq!(v(FeatureSet::Bands, "4096x4096x4096")[source..], v(FeatureSet::Bands, "8192x8192x8192")[source..]);
    // One tiled band: the columns are zeros.
    let mm = kernel("paper/matmul.c");
    let mm_shape = Shape { statement_work: vec![1e6], ..Shape::of_extents([100, 100, 100]) };
    let row = mm.vector(FeatureSet::Bands, &mm_shape, Some(&Config::cubic(32)), &caches);
    assert!(row[source..].iter().all(|&x| x == 0.0), "{:?}", &row[source..]);
}

/// Packing transposes syrk's `A[j][k]` (stride N along the vector loop `j`)
/// but copies gemm's `B[k][j]` as it is (already stride-1): the `copy` set
/// tells the two apart, and prices the copy's reuse and its buffer's bytes.
#[test]
fn the_copy_set_tells_a_transposing_copy_from_a_plain_one() {
    let caches = Caches { l1d: 32 << 10, l2: 1 << 20, line: 64 };
    let at = |rel: &str, sizes: &str| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
        let a = analyze(&path, &std::fs::read_to_string(&path).unwrap(), false).unwrap();
        let shape = a.shape(&Sizes::parse(&a.scop.params, sizes).unwrap(), 256, 1).unwrap();
        move |tile: &str| {
            let config = tile.parse::<crate::harness::Variant>().unwrap().feature_config(a.tile_dims());
            let row = a.kernel.vector(FeatureSet::Copy, &shape, config.as_ref(), &caches);
            assert_eq!(row.len(), FeatureSet::Copy.len());
            assert_eq!(
                &row[..FeatureSet::Bands.len()],
                &a.kernel.vector(FeatureSet::Bands, &shape, config.as_ref(), &caches)[..]
            );
            <[f64; 3]>::try_from(&row[FeatureSet::Bands.len()..]).unwrap()
        }
    };
    let syrk = at("corpus/blas/syrk-upper.c", "N=1000,M=900");
    let gemm = at("corpus/blas/gemm-ikj.c", "NI=1000,NJ=900,NK=800");
    for plain in ["untiled", "64x64x64:4x1x4", "64x64x64/nosink"] {
        assert_eq!(syrk(plain), [0.0; 3], "{plain} copies nothing");
    }
    let [gathered, reuse, fixed] = syrk("64x64x64:4x1x4/pack");
    assert_eq!(gathered, 1.0, "A[j][k] is transposed");
    // Each copied element of a 64x64 panel serves the tile's 64 rows.
    assert_eq!(reuse, 6.0);
    assert!(fixed > 0.0);
    let [gathered, reuse, fixed_small] = gemm("64x256x128:4x1x4/pack");
    assert_eq!((gathered, reuse), (0.0, 6.0), "B[k][j] is stride-1 already; reused by 64 rows of i");
    assert_eq!(gemm("8x256x128:4x1x4/pack")[1], 3.0, "8 rows reuse it less");
    // The same buffer for less work weighs more.
    let small = at("corpus/blas/gemm-ikj.c", "NI=100,NJ=900,NK=800");
    assert!(small("64x256x128:4x1x4/pack")[2] > fixed_small);
}
