//! Choosing tile sizes from Rust, the way a `build.rs` would.
//!
//! ```text
//! cargo run --release --example choose_tiles -- polybench/paper/matmul.c NI=1500,NJ=1300,NK=1100
//! ```
//!
//! In a `build.rs`, call [`tss::choose::choose_tiles`] the same way, write
//! `choice.code` into `OUT_DIR`, and compile it (e.g. with the `cc` crate)
//! with `choice.defines()`; print `cargo:rerun-if-changed=<kernel file>` so
//! the choice is only revisited when the kernel changes. Choices are cached
//! (kernel text, sizes, model, machine), so rebuilds cost a few milliseconds.

use std::path::PathBuf;
use std::process::ExitCode;

use tss::choose::{ChooseOptions, choose_tiles};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(file), Some(sizes)) = (args.first(), args.get(1)) else {
        eprintln!("usage: choose_tiles KERNEL.c NAME=VALUE,... [--parallel]");
        return ExitCode::FAILURE;
    };
    let opts = ChooseOptions::new(args.iter().any(|a| a == "--parallel"));
    match choose_tiles(&PathBuf::from(file), sizes, &opts) {
        Ok(choice) => {
            for w in &choice.warnings {
                eprintln!("warning: {w}");
            }
            println!("{}", choice.defines());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("choose_tiles: {e}");
            ExitCode::FAILURE
        }
    }
}
