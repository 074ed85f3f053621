//! End to end on the kernel corpus (`corpus/`, written by
//! `scripts/corpus.py`): every kernel, tiled at cubic, per-dimension and
//! register-tiled and packing configs in both loop orders, serially and with `--parallel` under two threads,
//! must print exactly the arrays the original prints at the small odd sizes
//! (`-DTSS_SMALL`). Equality is exact, as in `tile_kernels.rs`.

mod common;

use std::path::{Path, PathBuf};

use common::root;

use tss::TileOptions;

/// One of them keeps every band's point loops together (`/nosink`): the
/// other loop order a config may choose where a band can sink a member. Three
/// pack transposed reads (`/pack`), one of them in vector register tiles (`/v2`).
/// Two of them in the other loop forms (`/inline`, `/index`).
const CONFIGS: [&str; 6] = [
    "7/inline",
    "32:4/nosink",
    "16x64x8:3x1x5/pack",
    "33x9x17x5x3x2:1x2x7x3/index",
    "5x3x9/nosink/pack/inline",
    "40x64x16:3x2x4/pack/v2",
];

/// The families whose specs, ranges and config spaces the last two tests
/// check (`corpus/fresh` is tiled by its own test only).
const SPEC_CHECKED: [&str; 10] =
    ["blas", "tensor", "nn", "datamining", "solvers", "stencils", "random", "recur", "variants", "fresh2"];

/// The `.c` files of one corpus family.
fn family(name: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(root().join("corpus").join(name))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    out.sort();
    assert!(!out.is_empty(), "corpus/{name} has no kernels");
    out
}

fn run(src: &Path, exe: &Path) -> String {
    let text = common::compile_and_run(src, exe, &["-DTSS_SMALL", "-DCORPUS_DUMP"]);
    assert!(text.contains("begin dump"), "{} printed no array", src.display());
    text
}

/// Checks every kernel of `name` and reports all failures at once.
fn check_family(name: &str) {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for kernel in family(name) {
        let src = std::fs::read_to_string(&kernel).unwrap();
        let expected = run(&kernel, &dir.path().join("orig"));
        for parallel in [false, true] {
            for text in CONFIGS {
                let opts = TileOptions { config: text.parse().unwrap(), parallel, ..TileOptions::default() };
                let code = match tss::tile_source(&kernel, &src, &opts) {
                    Ok((code, _)) => code,
                    Err(e) => {
                        failures.push(format!("{}: {text}: {e}", kernel.display()));
                        continue;
                    }
                };
                let tiled = dir.path().join("tiled.c");
                std::fs::write(&tiled, &code).unwrap();
                if run(&tiled, &dir.path().join("tiled")) != expected {
                    failures.push(format!("{}: config {text} parallel={parallel} differs", kernel.display()));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn blas() {
    check_family("blas");
}

#[test]
fn tensor() {
    check_family("tensor");
}

/// A packed buffer's rows are as long as the tile or as the reads' span,
/// whichever is shorter: batched-matmul's `B[b][k][j]` under 256-wide tiles
/// at NB = 3, NK = 11 and NJ = 17 is a 3x11x17 box, not 256x256x256 with
/// 17 used elements in each 256-long row.
#[test]
fn packed_buffers_are_no_wider_than_the_reads() {
    let kernel = root().join("corpus/tensor/batched-matmul.c");
    let src = std::fs::read_to_string(&kernel).unwrap();
    let opts = TileOptions { config: "256:1x8x1x1/pack/v2".parse().unwrap(), ..TileOptions::default() };
    let code = tss::tile_source(&kernel, &src, &opts).unwrap().0;
    let alloc = code.lines().find(|l| l.contains("__builtin_malloc")).unwrap_or_else(|| panic!("no buffer: {code}"));
    for (tile, reads) in [("TSS_T1", "NB"), ("TSS_T4", "NK"), ("TSS_T3", "NJ")] {
        let width = format!("tss_min({tile}, tss_max({reads}, 1))");
        assert!(alloc.contains(&width), "{width} is not in {alloc}");
    }
    let dir = tempfile::tempdir().unwrap();
    let tiled = dir.path().join("tiled.c");
    std::fs::write(&tiled, &code).unwrap();
    assert_eq!(run(&tiled, &dir.path().join("tiled")), run(&kernel, &dir.path().join("orig")));
}

#[test]
fn nn() {
    check_family("nn");
}

#[test]
fn datamining_and_solvers() {
    check_family("datamining");
    check_family("solvers");
}

#[test]
fn stencils() {
    check_family("stencils");
}

/// Recurrences along the innermost loop (`corpus/recur`): in-place sweeps
/// and recursive filters, tiled only where skewing or the loop order keeps
/// every value read after it is written.
#[test]
fn recur() {
    check_family("recur");
}

/// The kernels no model was trained on (`corpus/fresh`).
#[test]
fn fresh() {
    check_family("fresh");
}

/// More shapes to train on (`corpus/variants`, session 76).
#[test]
fn variants() {
    check_family("variants");
}

/// The second set of kernels no model was trained on (`corpus/fresh2`).
#[test]
fn fresh2() {
    check_family("fresh2");
}

/// The random affine nests of `scripts/corpus.py` (seeded, so the same
/// nests every run).
#[test]
fn random() {
    check_family("random");
}

/// The corpus is what its generator writes, and every kernel has a tiled
/// band and declares where `tss collect` draws each of its sizes.
#[test]
fn corpus_matches_its_specs() {
    let out = std::process::Command::new("python3")
        .arg(root().join("scripts/corpus.py"))
        .arg("--check")
        .output()
        .expect("python3 runs scripts/corpus.py");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let all: Vec<PathBuf> = SPEC_CHECKED.iter().flat_map(|f| family(f)).collect();
    assert!(all.len() >= 25, "the corpus has {} kernels", all.len());
    for k in all {
        let src = std::fs::read_to_string(&k).unwrap();
        let declared = tss::instance::Ranges::declared_in(&src).unwrap();
        let scops = tss::frontend::parse_file(&src).unwrap_or_else(|e| panic!("{}: {e:?}", k.display()));
        let params = &scops[0].params;
        let ranges = tss::instance::Ranges { named: declared, ..tss::instance::Ranges::all(1, 1) };
        assert!(ranges.unmatched(&[&params[..]]).is_empty(), "{}: a range names no parameter", k.display());
        assert_eq!(ranges.named.len(), params.len(), "{}: every parameter needs a range", k.display());
        // Scheduling budgets are wall-clock; tests load the machine, so give them room.
        let explain = std::process::Command::new(env!("CARGO_BIN_EXE_tss"))
            .args(["tile", "--explain"])
            .arg(&k)
            .env("TSS_TIME_SCALE", "10")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&explain.stdout);
        assert!(text.contains("tiled: TSS_T1="), "{}: no tiled band\n{text}", k.display());
    }
}

/// Every kernel's per-dimension config space (`tss collect --space`) at
/// drawn instances: the anchors are there, the space is non-empty wherever
/// the SCoP has a tiled band, holds register tiles wherever two point loops
/// surround the vector loop, and a sampled config tiles the kernel exactly.
#[test]
fn every_kernel_has_a_config_space() {
    use tss::config::Config;
    use tss::instance::Ranges;
    let caches = tss::machine::Caches { l1d: 32 << 10, l2: 512 << 10, line: 64 };
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for kernel in SPEC_CHECKED.iter().flat_map(|f| family(f)) {
        let src = std::fs::read_to_string(&kernel).unwrap();
        let a = tss::analyze(&kernel, &src, false).unwrap();
        let ranges = Ranges::all(16, 2048).over(&Ranges::declared_in(&src).unwrap());
        let mut sample = Vec::new();
        for k in 0..3 {
            let sizes = tss::collect::draw_sizes(&a, &ranges, 11, k, (1e7, 3e8)).unwrap();
            let space = tss::space::enumerate(&a, &sizes, &caches, 16).unwrap();
            let anchors = tss::space::anchors(&a, &space.extents, &caches, 16);
            let tiled = a.report.bands.iter().find(|b| b.tiled);
            let name = kernel.display();
            if tiled.is_none() {
                continue; // a fallback plan (e.g. heat-3d past its budget on a loaded machine)
            }
            if space.configs.is_empty() || !anchors.contains(&Config::cubic(32)) {
                failures.push(format!("{name} {sizes}: {} configs, anchors {anchors:?}", space.configs.len()));
            }
            // Register tiles unroll the point loop just outside the vector loop.
            let po = tiled.unwrap().point_order();
            let unrollable = po.len() >= 2 && space.extents[po[po.len() - 2]] >= 2;
            if unrollable && !space.configs.iter().any(Config::is_unrolled) {
                failures.push(format!("{name} {sizes}: no register tile in the space"));
            }
            println!("{name} {sizes}: extents {:?}, {} configs", space.extents, space.configs.len());
            sample.extend(space.sample(2, k as u64, &anchors));
        }
        // The most unrolled sampled config must tile the kernel exactly (sizes small and odd).
        let Some(config) = sample.iter().max_by_key(|c| (0..8).map(|m| c.unroll(m)).product::<usize>()) else {
            continue;
        };
        let opts = tss::TileOptions { config: config.clone(), ..tss::TileOptions::default() };
        let code = tss::tile_source(&kernel, &src, &opts).unwrap().0;
        let tiled = dir.path().join("tiled.c");
        std::fs::write(&tiled, &code).unwrap();
        if run(&tiled, &dir.path().join("tiled")) != run(&kernel, &dir.path().join("orig")) {
            failures.push(format!("{}: sampled config {config} differs", kernel.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
