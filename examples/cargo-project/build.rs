//! Tiles `kernel.c` with tss's model at build time and compiles it with the
//! `cc` crate. The choice is cached by kernel, sizes, model and machine, so
//! rebuilds cost milliseconds; it is revisited when `kernel.c` changes.

use std::path::{Path, PathBuf};

use tss::choose::{ChooseOptions, choose_tiles};
use tss::select::Strategy;

/// The problem sizes the program runs at (main.rs uses the same).
const SIZES: &str = "N=320,M=280";

fn main() {
    let kernel = Path::new("kernel.c");
    println!("cargo:rerun-if-changed={}", kernel.display());
    let mut opts = ChooseOptions::new(false);
    // The model's pick, no timing runs during the build (`T6Search` times
    // the model's best 10 % on this machine instead).
    opts.strategy = Strategy::T1;
    let choice = choose_tiles(kernel, SIZES, &opts).unwrap_or_else(|e| panic!("tss: {e}"));
    for w in &choice.warnings {
        println!("cargo:warning=tss: {w}");
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let tiled = out.join("kernel.tiled.c");
    std::fs::write(&tiled, &choice.code).unwrap();
    // The sizes for the program to report (they are also the tiled file's defaults).
    let tiles: Vec<String> = choice.tile.iter().map(|t| t.to_string()).collect();
    println!("cargo:rustc-env=TSS_TILES={}", tiles.join(","));
    cc::Build::new().file(&tiled).opt_level(3).flag("-ffp-contract=off").compile("tiled_kernel");
}
