//! The build-integration example: a Make project that picks its tile sizes
//! with the shipped model at build time, builds, runs and checks itself.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

#[test]
fn make_project_chooses_tiles_at_build_time() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let proj = dir.path().join("proj");
    copy_dir(&repo.join("examples/make-project"), &proj);
    let cache = dir.path().join("cache");
    let make = || {
        Command::new("make")
            .current_dir(&proj)
            .env("TSS_CACHE", &cache)
            .arg(format!("TSS={}", env!("CARGO_BIN_EXE_tss")))
            .arg(format!("TSS_FLAGS=--model {}", repo.join("trained/serial").display()))
            .output()
            .unwrap()
    };
    let o = make();
    assert!(o.status.success(), "{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    let header = std::fs::read_to_string(proj.join("tiles.h")).unwrap();
    assert_eq!(header.matches("#define TSS_T").count(), 3, "{header}");
    let run = Command::new(proj.join("example")).output().unwrap();
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success() && out.starts_with("ok: tiles"), "{out}");
    // Nothing changed: make does not run tss again.
    let again = make();
    assert!(String::from_utf8_lossy(&again.stdout).contains("Nothing to be done"));
    // A clean rebuild predicts nothing: the choice comes from tss's cache.
    let predict = || {
        Command::new(env!("CARGO_BIN_EXE_tss"))
            .current_dir(&proj)
            .env("TSS_CACHE", &cache)
            .args(["predict", "kernel.c", "--size", "NI=300,NJ=280,NK=260", "--mode", "t1", "-o", "-", "--model"])
            .arg(repo.join("trained/serial"))
            .output()
            .unwrap()
    };
    let text = String::from_utf8_lossy(&predict().stdout).into_owned();
    assert!(text.contains("cached"), "{text}");
    // The tiled file carries the same sizes as its defaults.
    assert!(text.contains(header.lines().nth(1).unwrap()), "{text}");
}

/// Runs a command in `dir` with tss's choice cache in `cache`; returns
/// success and stdout + stderr.
fn run_in(dir: &Path, cache: &Path, program: &str, args: &[&str]) -> (bool, String) {
    let o = Command::new(program).current_dir(dir).env("TSS_CACHE", cache).args(args).output().unwrap();
    (o.status.success(), format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr)))
}

#[test]
fn cmake_project_chooses_tiles_at_build_time_and_reruns_only_on_change() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    // The example finds the module at ../../cmake, as in the repository.
    let proj = dir.path().join("examples/cmake-project");
    copy_dir(&repo.join("examples/cmake-project"), &proj);
    copy_dir(&repo.join("cmake"), &dir.path().join("cmake"));
    let cache = dir.path().join("cache");
    let configure = |extra: &[&str]| {
        let tss = format!("-DTSS_EXECUTABLE={}", env!("CARGO_BIN_EXE_tss"));
        let mut args = vec!["-S", ".", "-B", "build", tss.as_str()];
        args.extend(extra);
        let (ok, out) = run_in(&proj, &cache, "cmake", &args);
        assert!(ok, "cmake configure failed (is cmake installed? scripts/install-deps.sh):\n{out}");
    };
    let build = || {
        let (ok, out) = run_in(&proj, &cache, "cmake", &["--build", "build"]);
        assert!(ok, "{out}");
        let (ok, ran) = run_in(&proj, &cache, proj.join("build/example").to_str().unwrap(), &[]);
        assert!(ok && ran.starts_with("ok: tiles"), "{ran}");
        out.contains("tss: choosing tile sizes")
    };
    configure(&[]);
    assert!(build(), "the first build runs tss");
    let header = std::fs::read_to_string(proj.join("build/tss/example/kernel.tiles.h")).unwrap();
    assert_eq!(header.matches("#define TSS_T").count(), 3, "{header}");
    assert!(!build(), "nothing changed: tss must not run again");
    configure(&[]);
    assert!(!build(), "configuring again with the same sizes must not rerun tss");
    configure(&["-DSIZES=NI=300,NJ=90,NK=64,NL=250"]);
    assert!(build(), "new sizes rerun tss");
    assert!(!build());
    let kernel = proj.join("kernel.c");
    std::fs::write(&kernel, std::fs::read_to_string(&kernel).unwrap() + "/* edited */\n").unwrap();
    assert!(build(), "an edited kernel reruns tss");
}

/// The cargo example: its build.rs calls `tss::choose::choose_tiles`,
/// compiles the tiled C with the `cc` crate and links it; the program checks
/// the kernel against the same loops in Rust, bit for bit.
#[test]
fn cargo_project_tiles_its_kernel_in_build_rs() {
    // The example's dependencies are built in this build's target directory
    // once (minutes on a fresh clone), then reused.
    let cache = tempfile::tempdir().unwrap();
    let manifest = common::root().join("examples/cargo-project/Cargo.toml");
    let o = common::cargo()
        .args(["build", "--release", "--locked", "--manifest-path"])
        .arg(&manifest)
        .env("TSS_CACHE", cache.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let run = Command::new(common::target_dir().join("release/tss-cargo-example")).output().unwrap();
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success() && out.starts_with("ok: tiles "), "{out}");
    let tiles: Vec<usize> = out.trim()["ok: tiles ".len()..].split(',').map(|t| t.parse().unwrap()).collect();
    assert!(tiles.len() == 3 && tiles.iter().all(|&t| t >= 1), "{out}");
}
