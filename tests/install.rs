//! An installed `tss` works without its source tree: `cargo install` into a
//! temporary root, then predict from an empty directory with an empty home.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// `cargo install --path <repo> --root <root>`, reusing this build's target
/// directory so that it only links (a fresh build would take minutes).
fn install(root: &Path) -> PathBuf {
    let out = common::cargo()
        .args(["install", "--locked", "--offline", "--quiet", "--path"])
        .arg(common::root())
        .arg("--root")
        .arg(root)
        .output()
        .unwrap();
    assert!(out.status.success(), "cargo install failed: {}", String::from_utf8_lossy(&out.stderr));
    root.join("bin/tss")
}

#[test]
fn installed_binary_predicts_from_an_empty_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let tss = install(&tmp.path().join("root"));
    // The binary must not point back into the build tree for its models.
    let bytes = std::fs::read(&tss).unwrap();
    let trained = format!("{}/trained", env!("CARGO_MANIFEST_DIR"));
    assert!(!bytes.windows(trained.len()).any(|w| w == trained.as_bytes()), "the binary refers to {trained}");

    let work = tmp.path().join("work");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(repo.join("polybench/paper/matmul.c"), work.join("matmul.c")).unwrap();
    let run = |args: &[&str]| {
        Command::new(&tss)
            .args(args)
            .current_dir(&work)
            .env_remove("TSS_MODEL_DIR")
            .env_remove("TSS_CACHE")
            .env_remove("XDG_CACHE_HOME")
            .env("HOME", &home)
            .output()
            .unwrap()
    };
    let o = run(&["predict", "matmul.c", "--size", "NI=500,NJ=400,NK=300", "--mode", "t1", "--emit", "defines"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(out.split_whitespace().filter(|d| d.starts_with("-DTSS_T")).count(), 3, "{out}");
    // It says which model it used and where that model's data came from.
    let v = run(&["--version"]);
    let text = String::from_utf8_lossy(&v.stdout);
    assert!(text.contains("serial model: built-in serial model, trained 20"), "{text}");
    assert!(text.contains("parallel model: built-in parallel model"), "{text}");
    // The choice went into the cache under the empty home, nowhere else.
    assert!(home.join(".cache/tss/choices").read_dir().unwrap().count() >= 1);
}
