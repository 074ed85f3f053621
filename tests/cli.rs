//! The `tss` binary as a user meets it: output files, `--explain`, and
//! one-line errors naming file, line and reason for bad input.

use std::process::Command;

fn tss(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tss")).args(args).output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into()
}

/// Runs `tss tile` on a SCoP body and returns the single stderr line.
fn tile_error(body: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let f = write(&dir, "bad.c", &format!("void f(void) {{\n#pragma scop\n{body}\n#pragma endscop\n}}\n"));
    let (ok, _, err) = tss(&["tile", &f]);
    assert!(!ok, "tss accepted {body:?}");
    assert_eq!(err.lines().count(), 1, "error is not one line: {err:?}");
    assert!(!err.contains("panicked"), "{err}");
    err.trim().replace(&f, "bad.c")
}

#[test]
fn unsupported_input_gets_one_line_errors() {
    assert_eq!(
        tile_error("for (i = 0; i < N; i++)\n  for (j = 0; j < N; j++)\n    A[i*j] = 0;"),
        "tss: bad.c:5:7: non-affine subscript [i*j]"
    );
    assert_eq!(
        tile_error("while (n > 0) n = n - 1;"),
        "tss: bad.c:3:1: while statement inside a SCoP is not supported"
    );
    assert!(tile_error("for (i = 0; i < N; i += 2) A[i] = 0;").contains("bad.c:3:"));
    assert!(tile_error("for (i = 0; i < N*N; i++) A[i] = 0;").contains("non-affine expression N*N"));
    assert!(tile_error("for (i = 0; i < N; i++) A[i] = 0").contains("';'"));
    assert!(tile_error("for (i = 0; i < N; i++) { A[i] = 0;").contains("missing '}'"));
    assert!(tile_error("for (i = 0; i < A[3]; i++) B[i] = 0;").contains("array element 'A[...]'"));
    assert!(tile_error("for (i = 0; i < N; i++) for (i = 0; i < N; i++) A[i] = 0;").contains("reused"));
}

/// The function's own `int` iterators are reused, not shadowed (gcc
/// `-Wall -Werror` passes and the tiled code still prints what the original
/// prints), and reading one after the SCoP is refused where it happens.
#[test]
fn iterators_declared_by_the_function() {
    let dir = tempfile::tempdir().unwrap();
    let kernel = |tail: &str| {
        format!(
            "#include <stdio.h>\nstatic double A[40][40];\nint main(void)\n{{\n  int i, j, n = 37;\n  long k = 5;\n\
             #pragma scop\n  for (i = 0; i < n; i++)\n    for (j = 1; j < n; j++)\n      \
             A[i][j] = A[i][j - 1] + i * 0.5 + k;\n#pragma endscop\n{tail}  \
             printf(\"%a %a\\n\", A[36][36], A[3][17]);\n  return 0;\n}}\n"
        )
    };
    let f = write(&dir, "ok.c", &kernel("  for (i = 0; i < 2; i++)\n    A[i][0] = i;\n"));
    for flags in [&["--tile", "7,3"][..], &["--tile", "5", "--parallel"]] {
        let out = dir.path().join("ok.tiled.c");
        let (ok, _, err) = tss(&[&["tile", &f, "-o", out.to_str().unwrap()][..], flags].concat());
        assert!(ok, "{err}");
        let code = std::fs::read_to_string(&out).unwrap();
        assert!(code.contains("{\n  int i_t, j_t;\n"), "i or j redeclared:\n{code}");
        let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
        let outputs: Vec<String> = [f.as_str(), out.to_str().unwrap()]
            .iter()
            .map(|src| {
                let exe = dir.path().join("a.out");
                let c = Command::new(&cc)
                    .args(["-Wall", "-Wno-unknown-pragmas", "-Werror", "-fopenmp", src, "-o"])
                    .arg(&exe)
                    .output()
                    .unwrap();
                assert!(c.status.success(), "{src}: {}", String::from_utf8_lossy(&c.stderr));
                String::from_utf8(Command::new(&exe).output().unwrap().stdout).unwrap()
            })
            .collect();
        assert_eq!(outputs[0], outputs[1]);
    }
    let f = write(&dir, "bad.c", &kernel("  A[0][0] = j;\n"));
    let (ok, _, err) = tss(&["tile", &f]);
    assert!(!ok, "a read of j after the SCoP was accepted");
    assert!(err.trim().ends_with("bad.c:12:13: 'j', an iterator of the SCoP at line 7, is read after it, but tiled loops leave it with another value; assign 'j' before this use"), "{err}");
}

#[test]
fn file_problems_are_reported() {
    let (ok, _, err) = tss(&["tile", "/nonexistent/x.c"]);
    assert!(!ok && err.starts_with("tss: /nonexistent/x.c: "), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let f = write(&dir, "plain.c", "int main(void) { return 0; }\n");
    let (ok, _, err) = tss(&["tile", &f]);
    assert!(!ok && err.contains("plain.c:1:1: no '#pragma scop' region found"), "{err}");
    let (ok, _, err) = tss(&["tile", &f, "--tile", "0"]);
    assert!(!ok && err.contains("--tile: '0'"), "{err}");
    let (ok, _, err) = tss(&["adapt", "--budget", "5x"]);
    assert!(!ok && err.contains("the unit is s, m or h"), "{err}");
    let (ok, _, err) = tss(&["adapt", "--budget", "xm"]);
    assert!(!ok && err.contains("is not a duration"), "{err}");
    let (ok, _, err) = tss(&["adapt", "--budget", "0", "--data", "/nonexistent/rows.csv"]);
    assert!(!ok && err.contains("/nonexistent/rows.csv: no rows to refit on"), "{err}");
    let (ok, _, err) = tss(&["adapt", "--budget", "0", "--fit", "correct", "--rehearse", "/nonexistent/base.csv"]);
    assert!(!ok && err.contains("--rehearse rows are trained on"), "{err}");
    let (ok, _, err) = tss(&["adapt", "--budget", "1m", "--rehearse", "/nonexistent/base.csv"]);
    assert!(!ok && err.contains("/nonexistent/base.csv: "), "a wrong rehearsal file costs no budget: {err}");
    // A budget spent before anything was timed fails, naming the rows file,
    // rather than saving the base model as if adapted; a kernel directory
    // holding `tss tile`'s output beside the kernel expands to the kernel
    // alone (the tiled file would fail: it has no SCoP).
    let dir = tempfile::tempdir().unwrap();
    let kernel = dir.path().join("matmul.c");
    std::fs::copy("polybench/paper/matmul.c", &kernel).unwrap();
    let (ok, _, err) = tss(&["tile", kernel.to_str().unwrap()]);
    assert!(ok && dir.path().join("matmul.tiled.c").exists(), "{err}");
    let (rows, out) = (dir.path().join("rows.csv"), dir.path().join("model"));
    let (ok, _, err) = tss(&["adapt", "--budget", "0.001s", "--kernels", dir.path().to_str().unwrap(), "--quiet"]
        .into_iter()
        .chain(["--data", rows.to_str().unwrap(), "--out", out.to_str().unwrap()])
        .collect::<Vec<_>>());
    assert!(!ok && err.contains("rows.csv: no rows to fit on: the 0.001 s budget ended"), "{err}");
    assert!(!out.exists(), "nothing saved");
    let (ok, _, err) = tss(&["train", "--data", "x.csv", "--out", "/tmp/never", "--dropout", "1"]);
    assert!(!ok && err.contains("--dropout 1: must lie in [0, 1)"), "{err}");
    let (ok, _, err) = tss(&["train", "--data", "x.csv", "--out", "/tmp/never", "--hidden", "0"]);
    assert!(!ok && err.contains("--hidden"), "{err}");
    let (ok, _, err) = tss(&["train", "--data", "x.csv", "--out", "/tmp/never", "--weight-decay", "1.5"]);
    assert!(!ok && err.contains("--weight-decay 1.5: must lie in [0, 1)"), "{err}");
    let (ok, _, err) = tss(&["train", "--data", "x.csv", "--out", "/tmp/never", "--cap", "2"]);
    assert!(!ok && err.contains("--cap needs --target relative"), "{err}");
    let (ok, _, err) = tss(&["train", "--data", "x.csv", "--out", "/tmp/never", "--target", "relative", "--cap", "1"]);
    assert!(!ok && err.contains("--cap 1: must be a ratio above 1"), "{err}");
    let (ok, _, err) = tss(&["train", "--data", "x.csv", "--out", "/tmp/never", "--val-by", "family"]);
    assert!(!ok && err.contains("instance or kernel"), "{err}");
}

#[test]
fn writes_default_output_and_explains() {
    let dir = tempfile::tempdir().unwrap();
    let src = "#define N 10\ndouble A[N][N], B[N][N];\nvoid f(void) {\n  int i, j;\n#pragma scop\n  for (i = 1; i < N; i++)\n    for (j = 1; j < N; j++)\n      A[i][j] = A[i-1][j] + B[i][j-1];\n#pragma endscop\n}\n";
    let f = write(&dir, "k.c", src);
    let (ok, _, err) = tss(&["tile", &f, "--tile", "4,8"]);
    assert!(ok, "{err}");
    let out = std::fs::read_to_string(dir.path().join("k.tiled.c")).unwrap();
    assert!(
        out.starts_with("#define N 10\ndouble A[N][N], B[N][N];\nvoid f(void) {\n  int i, j;\n"),
        "prefix not copied through"
    );
    assert!(out.ends_with("}\n}\n") && !out.contains("#pragma scop"));
    assert!(out.contains("#define TSS_T1 4") && out.contains("#define TSS_T2 8"));
    let (ok, text, _) = tss(&["tile", "--explain", &f]);
    assert!(ok);
    for needle in ["RAW:", "WAR:", "WAW:", "band 0", "tiled: TSS_T1=32 TSS_T2=32", "S0[i, j] -> S0[i' = 1 + i, j' = j]"]
    {
        assert!(text.contains(needle), "--explain lacks {needle:?}:\n{text}");
    }
}

/// The watchdog may stop ISL at any point of any plan: whatever the time
/// budget, `tss tile` answers (with code, or a fallback) and never crashes.
/// This once segfaulted when the budget ran out between code generation and
/// the report's texts.
#[test]
fn any_time_budget_answers() {
    let dir = tempfile::tempdir().unwrap();
    let body = "for (i = 0; i < N; i++) {\n  if (i + i <= N)\n    A[2][24] = (A[2][23] + A[i + 1][i + 22]) / 4.0;\n  \
                for (j = 0; j <= M + i; j++) {\n    for (k = 1; k <= j + 3; k++)\n      A[j + 1][N - k + 21] = 0.5;\n    \
                for (k = i; k < j; k++)\n      A[i][j + 22] = 0.5;\n  }\n}";
    let f = write(&dir, "k.c", &format!("void f(void) {{\n#pragma scop\n{body}\n#pragma endscop\n}}\n"));
    let out = dir.path().join("out.c").to_string_lossy().to_string();
    for step in 0..40 {
        let scale = format!("{}", 0.005 * 1.12f64.powi(step));
        let run = Command::new(env!("CARGO_BIN_EXE_tss"))
            .args(["tile", &f, "-o", &out, "--parallel", "--reverse-marked"])
            .env("TSS_TIME_SCALE", &scale)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(run.status.code().is_some(), "TSS_TIME_SCALE={scale}: killed by a signal: {err}");
        assert!(run.status.success(), "TSS_TIME_SCALE={scale}: {err}");
    }
}

/// Sizes the model never saw must not decide the tile by a saturated
/// network (once every candidate got the same prediction and T1 took the
/// first, tile 8): tss warns and takes the cache rule's tile.
#[test]
fn sizes_far_outside_training_fall_back_to_the_cache_rule() {
    let kernel = format!("{}/polybench/paper/matmul.c", env!("CARGO_MANIFEST_DIR"));
    let predict = |size: &str| {
        let (ok, out, err) = tss(&[
            "predict",
            &kernel,
            "--size",
            size,
            "--mode",
            "t1",
            "--emit",
            "defines",
            "--no-cache",
            "--l2",
            "512K",
            "--line",
            "64",
        ]);
        assert!(ok, "{err}");
        (out.trim().to_string(), err)
    };
    // matmul's tile working set is 3 T^2 doubles; 144 is the largest
    // multiple of 8 with 3 * 144^2 * 8 bytes <= 512 KiB.
    for size in ["NI=100000000000,NJ=100000000000,NK=100000000000", "NI=100000,NJ=100000,NK=100000"] {
        let (defines, err) = predict(size);
        assert_eq!(defines, "-DTSS_T1=144 -DTSS_T2=144 -DTSS_T3=144", "{size}: {err}");
        assert_eq!(err.lines().filter(|l| l.contains("cache rule")).count(), 1, "{err}");
    }
    // Inside the training range the model decides (the built-in serial
    // model's instances executed 1e7..3e8 statement instances).
    let (_, err) = predict("NI=600,NJ=500,NK=400");
    assert!(!err.contains("cache rule") && !err.contains("training range"), "{err}");
}

/// A strided point loop (`c += 3`, from the schedule `3j + 3`) is not
/// unroll-and-jammed: copies 1 apart ran iterations the loop skips
/// (random program 734 of the long fuzz run, minimised).
#[test]
fn strided_point_loops_are_not_jammed() {
    let body = "  for (i = 2 * N; i <= M + -2; i++) {\n    if (M + -2 >= N + 2) {\n      \
                B[i][(M - 1) / 2] = 0 - 0.5 * x[i];\n    }\n  }\n  for (i = N; i > -M + -M; i--) {\n    \
                for (j = -3; j <= N; j++) {\n      B[2 * j + j + 3][(N + i) / 2] += 0.5 * (0 + 0.5 * x[3 - 2 * N]);\n    \
                }\n  }\n";
    let dir = tempfile::tempdir().unwrap();
    let src = write(&dir, "p.c", &tss::fuzz::programs::wrap(body));
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let run = |file: &str| {
        let exe = dir.path().join("a.out");
        let c = Command::new(&cc).args(["-O1", file, "-o"]).arg(&exe).output().unwrap();
        assert!(c.status.success(), "{file}: {}", String::from_utf8_lossy(&c.stderr));
        String::from_utf8(Command::new(&exe).args(["2", "10"]).output().unwrap().stdout).unwrap()
    };
    let want = run(&src);
    for unroll in ["2", "7,4"] {
        let out = dir.path().join("t.c").to_string_lossy().into_owned();
        let (ok, _, err) = tss(&["tile", &src, "--tile", "3", "--unroll", unroll, "-o", &out]);
        assert!(ok, "{err}");
        assert_eq!(run(&out), want, "--unroll {unroll}");
    }
}

/// Random program 1427 of the long fuzz run, minimised: the condition makes
/// the innermost loop step by 3 (`j += 3`), and the hoisted-bounds form of
/// an `ivdep` loop stepped by 1, running the body on every `j`.
#[test]
fn strided_innermost_loops_keep_their_step() {
    let body = "  for (i = 0; i <= M; i++)\n    for (j = -i; j <= N; j++)\n      \
                if ((N - j) % 3 == 0)\n        C[i][j] = 2 - 0.5 * B[1][j] + i;\n";
    let dir = tempfile::tempdir().unwrap();
    let src = write(&dir, "p.c", &tss::fuzz::programs::wrap(body));
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let run = |file: &str| {
        let exe = dir.path().join("a.out");
        let c = Command::new(&cc).args(["-O1", "-fopenmp", file, "-o"]).arg(&exe).output().unwrap();
        assert!(c.status.success(), "{file}: {}", String::from_utf8_lossy(&c.stderr));
        String::from_utf8(Command::new(&exe).args(["9", "7"]).output().unwrap().stdout).unwrap()
    };
    let want = run(&src);
    for tile in ["2", "3", "32"] {
        for extra in [None, Some("--parallel")] {
            let out = dir.path().join("t.c").to_string_lossy().into_owned();
            let (ok, _, err) =
                tss(&["tile", &src, "--tile", tile, "-o", &out].into_iter().chain(extra).collect::<Vec<_>>());
            assert!(ok, "{err}");
            assert_eq!(run(&out), want, "--tile {tile} {extra:?}");
        }
    }
}

/// A `float` kernel of the corpus is timed on `float` arrays and its tiled
/// variants agree with the untiled one.
#[test]
fn float_kernels_are_measured() {
    let (ok, out, err) = measure_sgemm(&["--sizes", "runtime", "--reps", "1"]);
    assert!(ok, "{err}");
    let rows: Vec<&str> = out.lines().filter(|l| l.contains("\tok\t")).collect();
    assert_eq!(rows.len(), 3, "{out}{err}");
}

/// `tss measure` of a small sgemm: the untiled code and two tiled variants.
fn measure_sgemm(extra: &[&str]) -> (bool, String, String) {
    let mut args = vec![
        "measure",
        "corpus/blas/sgemm.c",
        "--size",
        "NI=40,NJ=36,NK=33",
        "--baseline",
        "--tile",
        "8",
        "--tile",
        "16:2",
    ];
    args.extend_from_slice(extra);
    tss(&args)
}

/// Every variant, the untiled one included, gets one time per round (the
/// round's fastest run), and `collect` refuses a round count other than the
/// harness's, which would mix differently timed rows in one file.
#[test]
fn rounds_time_each_variant_in_several_workers() {
    let run = |rounds: &str| {
        let (ok, out, err) = measure_sgemm(&["--reps", "2", "--rounds", rounds]);
        assert!(ok, "{err}");
        let runs: Vec<String> = out
            .lines()
            .filter(|l| l.contains("\tok\t"))
            .map(|l| l.split('\t').nth(4).unwrap_or_default().to_string())
            .collect();
        assert_eq!(runs.len(), 3, "{out}{err}");
        runs
    };
    assert!(run("3").iter().all(|r| r == "3"));
    assert!(run("1").iter().all(|r| r == "1" || r == "2"));
    let (ok, _, err) = tss(&["collect", "--kernels", "corpus/blas/sgemm.c", "--rounds", "2", "--out", "/dev/null"]);
    assert!(!ok && err.contains("--rounds 2"), "{err}");
}

/// The first `n` rows of a shipped dataset file (header included).
fn head_rows(path: &str, n: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().take(n + 1).map(|l| format!("{l}\n")).collect()
}

/// The first 400 rows of the Zen 5's `corpus-{mode}-train.csv` as `dir/{mode}.csv`, beside that
/// machine's `machine.json` (so training knows the platform).
fn zen5_rows(dir: &tempfile::TempDir, mode: &str) -> String {
    let z = "data/amd-epyc-avx512-l2-1m/harness3-constant";
    std::fs::copy(format!("{z}/machine.json"), dir.path().join("machine.json")).unwrap();
    write(dir, &format!("{mode}.csv"), &head_rows(&format!("{z}/corpus-{mode}-train.csv"), 400))
}

#[test]
fn train_takes_both_modes_only_with_the_set_that_tells_them_apart() {
    let dir = tempfile::tempdir().unwrap();
    let (serial, parallel) = (zen5_rows(&dir, "serial"), zen5_rows(&dir, "parallel"));
    let both = format!("{serial},{parallel}");
    let out = dir.path().join("m");
    let out = out.to_str().unwrap();
    let (ok, _, err) = tss(&["train", "--data", &both, "--out", out, "--set", "vector", "--epochs", "2"]);
    assert!(!ok && err.contains("mixes serial and parallel rows") && err.contains("--set parallel"), "{err}");
    let (ok, _, err) = tss(&["train", "--data", &both, "--out", out, "--set", "parallel", "--epochs", "2"]);
    assert!(ok, "{err}");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{out}/model.json")).unwrap()).unwrap();
    assert_eq!(meta["data"]["mode"], "parallel+serial");
    // One instance per kernel, sizes and mode: the same sizes timed serial and in
    // parallel never share a reference time.
    let instances = |path: &str| {
        let mut rd = csv::Reader::from_path(path).unwrap();
        let rows: std::collections::BTreeSet<(String, String)> =
            rd.records().map(|r| r.unwrap()).map(|r| (r[0].to_string(), r[3].to_string())).collect();
        rows.len()
    };
    assert_eq!(meta["data"]["instances"], instances(&serial) + instances(&parallel));
    let names: Vec<&str> = meta["feature_names"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(&names[names.len() - 3..], ["LOG_THREADS", "LOG_PAR_UNITS", "PAR_IDLE"]);
}

/// Rows narrower than the model's feature set (a file from before the set
/// existed) leave `tss eval` nothing to score: it says so and names the fix,
/// instead of printing an empty report.
#[test]
fn eval_names_rows_too_narrow_for_the_model() {
    let dir = tempfile::tempdir().unwrap();
    let narrow = paper_columns_only(&dir, &zen5_rows(&dir, "parallel"));
    let (ok, _, err) = tss(&["eval", "--parallel", "--data", narrow.to_str().unwrap()]);
    let last = err.trim().lines().last().unwrap_or_default();
    assert!(!ok && last.contains("narrow.csv") && last.contains("tss refeature"), "{err}");
}

/// Its twin in `tss train --test`: refused before the first epoch, so no
/// training ends in an empty report, and no model is written.
#[test]
fn train_refuses_test_rows_too_narrow_before_training() {
    let dir = tempfile::tempdir().unwrap();
    let serial = zen5_rows(&dir, "serial");
    let narrow = paper_columns_only(&dir, &serial);
    let out = dir.path().join("m");
    let args = ["train", "--data", &serial, "--out", out.to_str().unwrap(), "--set", "vector", "--epochs", "2"];
    let (ok, _, err) = tss(&[&args[..], &["--test", narrow.to_str().unwrap()]].concat());
    let last = err.trim().lines().last().unwrap_or_default();
    assert!(!ok && last.contains("narrow.csv") && last.contains("tss refeature"), "{err}");
    assert!(!out.join("model.json").exists(), "a model was written: {err}");
}

/// `wide`'s rows cut to the paper's 29 feature columns, as rows written
/// before the wider sets existed are, in `narrow.csv`.
fn paper_columns_only(dir: &tempfile::TempDir, wide: &str) -> std::path::PathBuf {
    let mut rd = csv::Reader::from_path(wide).unwrap();
    let keep = rd.headers().unwrap().iter().position(|h| h == "f_PS1").unwrap() + 29;
    let narrow = dir.path().join("narrow.csv");
    let mut wr = csv::Writer::from_path(&narrow).unwrap();
    wr.write_record(rd.headers().unwrap().iter().take(keep)).unwrap();
    for r in rd.records() {
        wr.write_record(r.unwrap().iter().take(keep)).unwrap();
    }
    wr.flush().unwrap();
    narrow
}

#[test]
fn a_capped_model_records_its_cap_and_still_ranks() {
    let dir = tempfile::tempdir().unwrap();
    let serial = zen5_rows(&dir, "serial");
    let out = dir.path().join("m");
    let out = out.to_str().unwrap();
    let args = ["train", "--data", &serial, "--out", out, "--set", "vector", "--target", "relative"];
    let (ok, _, err) = tss(&[&args[..], &["--cap", "2", "--epochs", "3"]].concat());
    assert!(ok, "{err}");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{out}/model.json")).unwrap()).unwrap();
    assert_eq!(meta["config"]["cap"], 2.0);
    let (ok, report, err) = tss(&["eval", "--model", out, "--data", &serial, "--train", &serial]);
    assert!(ok && report.contains("T1"), "{err}");
    // Each method names its pick, and the pick's stored time is the score's.
    let (ok, json, err) = tss(&["eval", "--model", out, "--data", &serial, "--train", &serial, "--json"]);
    assert!(ok, "{err}");
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    for inst in report["instances"].as_array().unwrap() {
        let time_of = |config: &serde_json::Value| {
            let c = inst["candidates"].as_array().unwrap().iter().find(|c| c[0] == *config).unwrap();
            c[1].as_f64().unwrap()
        };
        let scores = inst["scores"].as_object().unwrap();
        assert_eq!(scores["T1"]["config"], inst["t1_tile"]);
        assert!(scores["T6-Random"].get("config").is_none(), "a mean of picks names none");
        for m in ["T1", "T6-Search", "tile 32", "constant", "best"] {
            if let Some(s) = scores.get(m) {
                assert_eq!(time_of(&s["config"]), s["time"].as_f64().unwrap(), "{m}");
            }
        }
    }
}

/// `--mode t1 --compiled` compiles each kind of code and says so; without
/// llvm-mca it stops with one line naming what to install.
#[test]
fn t1_compiled_weighs_the_compilers_estimates_or_names_what_is_missing() {
    let kernel = format!("{}/polybench/paper/matmul.c", env!("CARGO_MANIFEST_DIR"));
    let args =
        ["predict", &kernel, "--size", "NI=300,NJ=280,NK=260", "--mode", "t1", "--compiled", "--no-cache", "-o", "-"];
    let (ok, out, err) = tss(&args);
    assert!(ok, "{err}");
    let line = err.lines().chain(out.lines()).find(|l| l.contains("kinds compiled")).unwrap_or_default();
    assert!(line.contains("lanes per cycle"), "{out}\n{err}");
    assert!(out.contains("TSS_T1"), "{out}");
    // The searches time every kind of code: --compiled is for t1 only.
    let (ok, _, err) = tss(&[&args[..4], &args[6..]].concat());
    assert!(!ok && err.contains("--compiled applies to --mode t1"), "{err}");
    fails_in_one_line_without_mca(&args);
}

/// Runs tss with `args` where no llvm-mca is: it must stop with one line
/// naming what to install.
fn fails_in_one_line_without_mca(args: &[&str]) {
    let run = Command::new(env!("CARGO_BIN_EXE_tss"))
        .args(args)
        .env("TSS_LLVM_MCA", "/nonexistent/llvm-mca")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success());
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("llvm-mca") && err.contains("llvm-19"), "{err}");
}

/// `tss estimate` gives rows the compiler's columns: a model of the
/// `compiled` set trains and evaluates on them, and `tss predict` with it
/// compiles the candidates' kinds of code. Rows of another machine need the
/// CPU to compile for.
#[test]
fn compiled_features_come_from_the_estimate_table_and_from_compiling() {
    let dir = tempfile::tempdir().unwrap();
    let z = "data/amd-epyc-avx512-l2-1m/harness3-constant";
    let machine = std::fs::read_to_string(format!("{z}/machine.json")).unwrap();
    let other = machine.replace("\"AMD EPYC\"", "\"Imaginary CPU\"");
    std::fs::write(dir.path().join("machine.json"), other).unwrap();
    let rows = write(&dir, "serial.csv", &head_rows(&format!("{z}/corpus-serial-train.csv"), 96));
    let kernels = "corpus/blas";
    let out = dir.path().join("m");
    let out = out.to_str().unwrap();
    let (ok, _, err) = tss(&["train", "--data", &rows, "--out", out, "--set", "compiled", "--epochs", "3"]);
    assert!(!ok && err.contains("run tss estimate"), "{err}");
    let (ok, _, err) = tss(&["features", "corpus/blas/atax.c", "--size", "M=64,N=64", "--set", "compiled"]);
    assert!(!ok && err.contains("tss features prints up to --set copy"), "{err}");
    let (ok, _, err) = tss(&["estimate", &rows, "--kernels", kernels]);
    assert!(!ok && err.contains("Imaginary CPU") && err.contains("--march"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let (ok, _, err) = tss(&["estimate", &rows, "--kernels", kernels, "--march", "native"]);
    assert!(ok && err.contains("2 kernels estimated"), "{err}");
    let table = std::fs::read_to_string(dir.path().join("compiled.csv")).unwrap();
    assert!(table.lines().any(|l| l.starts_with("atax,serial,2,untiled,")), "{table}");
    // Resumed: nothing left to estimate.
    let (ok, _, err) = tss(&["estimate", &rows, "--kernels", kernels, "--march", "native"]);
    assert!(ok && err.contains("0 kernels estimated"), "{err}");
    // The `bands` columns come from the sources: here the repository's corpus/.
    let (ok, _, err) = tss(&["train", "--data", &rows, "--out", out, "--set", "compiled", "--epochs", "3"]);
    assert!(ok, "{err}");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{out}/model.json")).unwrap()).unwrap();
    let names: Vec<&str> = meta["feature_names"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(&names[names.len() - 3..], ["LOG_LANES", "LANES_GAIN", "LANES_SHARE"]);
    let (ok, report, err) = tss(&["eval", "--model", out, "--data", &rows, "--train", &rows]);
    assert!(ok && report.contains("T1"), "{err}");
    let kernel = format!("{}/corpus/blas/atax.c", env!("CARGO_MANIFEST_DIR"));
    let args = ["predict", &kernel, "--size", "M=2400,N=2800", "--model", out, "--mode", "t1", "--no-cache", "-o", "-"];
    let (ok, code, err) = tss(&args);
    assert!(ok && code.contains("kernel_atax"), "{err}");
    // --compiled vetoes with the estimates the features were made of.
    let (ok, code, err) = tss(&[&args[..], &["--compiled"]].concat());
    assert!(ok && code.contains("kernel_atax"), "{err}");
    fails_in_one_line_without_mca(&args);
    // tss adapt estimates the kinds its guide ranks and the rows it timed,
    // natively, and rehearses the base model's rows with their table's.
    let adapted = dir.path().join("adapted");
    let adapt = Command::new(env!("CARGO_BIN_EXE_tss"))
        .env("TSS_CACHE", dir.path().join("cache"))
        .args(["adapt", "--budget", "20s", "--model", out, "--kernels", "corpus/blas/gemm-ikj.c", "--range", "40..70"])
        .args([
            "--min-work",
            "0",
            "--per-instance",
            "2",
            "--picks",
            "2",
            "--reps",
            "1",
            "--sizes",
            "runtime",
            "--quiet",
        ])
        .args(["--out", adapted.to_str().unwrap()])
        .output()
        .unwrap();
    let (report, err) = (String::from_utf8_lossy(&adapt.stdout), String::from_utf8_lossy(&adapt.stderr));
    assert!(adapt.status.success() && report.contains("adapted (tune)"), "{report}{err}");
    assert!(report.contains("instances of the base model's training rows"), "{report}");
    assert!(report.contains("kinds of code for the compiler's estimates on this CPU"), "{report}");
    let rows_dir = std::fs::read_dir(dir.path().join("cache/adapt")).unwrap().flatten().find(|e| e.path().is_dir());
    let table = std::fs::read_to_string(rows_dir.unwrap().path().join("compiled.csv")).unwrap();
    let kinds = table.lines().filter(|l| l.starts_with("gemm-ikj,serial,3,")).count();
    assert!(kinds >= 2 && table.lines().all(|l| !l.ends_with(",")), "{table}");
    let (ok, code, err) = tss(&[
        "predict",
        &kernel,
        "--size",
        "M=90,N=70",
        "--model",
        adapted.to_str().unwrap(),
        "--no-cache",
        "-o",
        "-",
    ]);
    assert!(ok && code.contains("kernel_atax"), "{err}");
}
