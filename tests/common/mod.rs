//! Helpers shared by the end-to-end tiling tests.

use std::path::{Path, PathBuf};
use std::process::Command;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Compiles `src` (with `args`, OpenMP and the headers of polybench/ and corpus/) and runs
/// it with two threads; returns stdout.
#[allow(dead_code)] // not every test binary uses it
pub fn compile_and_run(src: &Path, exe: &Path, args: &[&str]) -> String {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let out = Command::new(&cc)
        .args(["-O1", "-fopenmp"])
        .args(args)
        .arg("-I")
        .arg(root().join("polybench/include"))
        .arg("-I")
        .arg(root().join("corpus/include"))
        .arg(src)
        .arg("-o")
        .arg(exe)
        .arg("-lm")
        .output()
        .expect("a C compiler (cc) is needed for the tests");
    assert!(out.status.success(), "{} does not compile:\n{}", src.display(), String::from_utf8_lossy(&out.stderr));
    let run = Command::new(exe).env("OMP_NUM_THREADS", "2").output().unwrap();
    assert!(run.status.success(), "{} failed: {:?}", src.display(), run.status);
    String::from_utf8(run.stdout).unwrap()
}

/// This build's target directory: the nested builds of the install and
/// cargo-example tests reuse it, so they link instead of compiling anew.
#[allow(dead_code)] // not every test binary uses it
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or(root().join("target"), PathBuf::from)
}

/// The cargo running the tests, building into [`target_dir`].
#[allow(dead_code)]
pub fn cargo() -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.env("CARGO_TARGET_DIR", target_dir());
    c
}
