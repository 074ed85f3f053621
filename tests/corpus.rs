//! End to end on the kernel corpus (`corpus/`, written by
//! `scripts/corpus.py`): every kernel, tiled at cubic, per-dimension and
//! register-tiled configs, serially and with `--parallel` under two threads,
//! must print exactly the arrays the original prints at the small odd sizes
//! (`-DTSS_SMALL`). Equality is exact, as in `tile_kernels.rs`.

mod common;

use std::path::{Path, PathBuf};

use common::root;

use tss::TileOptions;

const CONFIGS: [&str; 4] = ["7", "32:4", "16x64x8:3x1x5", "33x9x17x5x3x2:1x2x7x3"];

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
    let all: Vec<PathBuf> =
        ["blas", "tensor", "nn", "datamining", "solvers", "stencils"].iter().flat_map(|f| family(f)).collect();
    assert!(all.len() >= 25, "the corpus has {} kernels", all.len());
    for k in all {
        let src = std::fs::read_to_string(&k).unwrap();
        let declared = tss::instance::Ranges::declared_in(&src).unwrap();
        let scops = tss::frontend::parse_file(&src).unwrap_or_else(|e| panic!("{}: {e:?}", k.display()));
        let params = &scops[0].params;
        let ranges = tss::instance::Ranges { named: declared, ..tss::instance::Ranges::uniform(1, 1) };
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
