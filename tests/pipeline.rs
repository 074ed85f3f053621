//! End-to-end: collection (resumable, fault-tolerant), training, prediction
//! and evaluation through the `tss` binary, on small real instances.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

mod common;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn tss(cache: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tss"));
    c.current_dir(repo()).env("TSS_CACHE", cache).env("CFLAGS", "-O2").env_remove("CC");
    c
}

fn ok(o: Output) -> String {
    assert!(o.status.success(), "stderr: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Rows of a dataset as (kernel, sizes, tile, status), sorted. A torn last
/// line (the writer was killed mid-row) is not a row, as `tss collect` reads it.
fn keys(p: &Path) -> Vec<(String, String, String, String)> {
    let text = std::fs::read_to_string(p).unwrap();
    let complete = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    let mut rd = csv::Reader::from_reader(complete.as_bytes());
    let h = rd.headers().unwrap().clone();
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    let (k, s, t, st) = (col("kernel"), col("sizes"), col("tile"), col("status"));
    let mut v: Vec<_> = rd
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[k].to_string(), r[s].to_string(), r[t].to_string(), r[st].to_string())
        })
        .collect();
    v.sort();
    v
}

fn collect_args(out: &Path) -> Vec<String> {
    [
        "collect",
        "--kernels",
        "polybench/paper/matmul.c,polybench/paper/dsyrk.c",
        "--instances",
        "3",
        "--seed",
        "5",
        "--range",
        "70..110",
        "--reps",
        "2",
        "--registers",
        "2",
        "--quiet",
        "--out",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([out.display().to_string()])
    .collect()
}

#[test]
fn killed_collection_resumes_without_gaps_or_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let full = dir.path().join("full.csv");
    ok(tss(&cache).args(collect_args(&full)).output().unwrap());
    let expected = keys(&full);
    assert!(expected.len() >= 2 * 3 * 5, "{} rows", expected.len());
    assert!(expected.iter().all(|k| k.3 == "ok"), "{expected:?}");
    let unrolled = expected.iter().filter(|k| k.2.contains(':')).count();
    assert_eq!(unrolled, 2 * 3 * 2, "two register-tile configs per instance: {expected:?}");

    let part = dir.path().join("part.csv");
    let mut child = tss(&cache).args(collect_args(&part)).spawn().unwrap();
    let start = Instant::now();
    while std::fs::read_to_string(&part).map_or(0, |t| t.lines().count()) < 8 {
        assert!(start.elapsed() < Duration::from_secs(60), "collection made no progress");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let partial = keys(&part);
    assert!(partial.len() < expected.len(), "killed too late to test resumption");
    ok(tss(&cache).args(collect_args(&part)).output().unwrap());
    let resumed = keys(&part);
    let mut dedup = resumed.clone();
    dedup.dedup();
    assert_eq!(dedup.len(), resumed.len(), "duplicate rows after resuming");
    let strip = |v: &[(String, String, String, String)]| {
        v.iter().map(|k| (k.0.clone(), k.1.clone(), k.2.clone())).collect::<Vec<_>>()
    };
    assert_eq!(strip(&resumed), strip(&expected));

    // Train on it, predict with it, evaluate it.
    let model = dir.path().join("model");
    let out = tss(&cache)
        .args(["train", "--data", part.to_str().unwrap(), "--out", model.to_str().unwrap(), "--epochs", "20"])
        .args(["--ensemble", "3"])
        .output()
        .unwrap();
    ok(out);
    let defines = ok(tss(&cache)
        .args([
            "predict",
            "polybench/paper/matmul.c",
            "--size",
            "NI=100,NJ=90,NK=80",
            "--emit",
            "defines",
            "--no-cache",
        ])
        .arg("--model")
        .arg(&model)
        .output()
        .unwrap());
    let re: Vec<&str> = defines.split_whitespace().collect();
    assert_eq!(re.len(), 3, "{defines}");
    assert!(re.iter().all(|d| d.starts_with("-DTSS_T") && d.split('=').nth(1).unwrap().parse::<usize>().is_ok()));
    let table =
        ok(tss(&cache).args(["eval", "--data", part.to_str().unwrap()]).arg("--model").arg(&model).output().unwrap());
    assert!(table.contains("| **mean** | T1 |") && table.contains("tile 32"), "{table}");
    assert!(table.contains("TN (geometric mean)") && table.contains("mean / geometric mean"), "{table}");

    assert!(model.join("weights-2.bin").exists() && !model.join("weights-3.bin").exists());

    // A model whose features describe unrolling learns from the register
    // rows, ranks register tiles beside the cubic ones, and is evaluated on them.
    let regs = dir.path().join("registers");
    ok(tss(&cache)
        .args(["train", "--data", part.to_str().unwrap(), "--out", regs.to_str().unwrap(), "--epochs", "20"])
        .args(["--set", "registers"])
        .output()
        .unwrap());
    let choice_of = |file: &str, sizes: &str, m: &Path| -> serde_json::Value {
        let out = ok(tss(&cache)
            .args(["predict", file, "--size", sizes, "--mode", "t1", "--json"])
            .args(["--no-cache", "-o", dir.path().join("t.c").to_str().unwrap(), "--model", m.to_str().unwrap()])
            .output()
            .unwrap());
        serde_json::from_str(&out).unwrap()
    };
    let choice = |m: &Path| choice_of("polybench/paper/matmul.c", "NI=100,NJ=90,NK=80", m);
    let syrk = |m: &Path| choice_of("polybench/paper/dsyrk.c", "NI=100,NJ=90", m);
    let (plain, with_regs) = (choice(&model), choice(&regs));
    assert!(with_regs["candidates"].as_u64() > plain["candidates"].as_u64(), "{with_regs}");
    let table =
        ok(tss(&cache).args(["eval", "--data", part.to_str().unwrap()]).arg("--model").arg(&regs).output().unwrap());
    assert!(table.contains("| **mean** | T1 |"), "{table}");

    // The untiled gate: fitted as if every tiled choice scored TN 1000, it
    // fires everywhere, so T1 keeps the loops as written and the evaluation
    // scores the network's own pick beside it; at TN 0.01 it fits no rule.
    let gate = |tn: &str| {
        let o = tss(&cache)
            .args(["gate", "--kind", "rules", "--data", part.to_str().unwrap(), "--kernels", "polybench/paper"])
            .args(["--gate-tn", tn])
            .arg("--model")
            .arg(&regs)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    assert!(gate("1000").contains("fires on 6"), "every one of the 6 instances");
    // syrk's original walks every reference at stride 1 along k: kept as written.
    let gated = syrk(&regs);
    assert_eq!(gated["original"], true, "{gated}");
    assert!(gated["warnings"].to_string().contains("untiled gate fired"), "{gated}");
    let src = std::fs::read_to_string(repo().join("polybench/paper/dsyrk.c")).unwrap();
    assert_eq!(std::fs::read_to_string(dir.path().join("t.c")).unwrap(), src, "the original, unchanged");
    // matmul's reads B[k][j] down a column: the gate fires, and a tile stays first.
    let strided = choice(&regs);
    assert_eq!(strided["original"], false, "{strided}");
    assert!(strided["warnings"].to_string().contains("walks memory at a stride"), "{strided}");
    // seidel-1d's innermost loop reads what its previous iteration wrote: a
    // tile stays first, whatever the gate says.
    let recurrent = choice_of("corpus/recur/seidel-1d.c", "T=20,N=3000", &regs);
    assert_eq!(recurrent["original"], false, "{recurrent}");
    let table = ok(tss(&cache)
        .args(["eval", "--data", part.to_str().unwrap(), "--kernels", "polybench/paper"])
        .arg("--model")
        .arg(&regs)
        .output()
        .unwrap());
    assert!(table.contains("| **mean** | T1 network |"), "{table}");
    // A gate fitted on another machine's rows is not applied, and predict says so.
    let json = regs.join("model.json");
    let mut meta: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert!(meta["gate"]["machine"].is_object(), "the rows' machine is recorded: {}", meta["gate"]);
    meta["gate"]["machine"]["cpu"] = "another CPU".into();
    std::fs::write(&json, serde_json::to_string(&meta).unwrap()).unwrap();
    let elsewhere = syrk(&regs);
    assert_eq!(elsewhere["original"], false, "{elsewhere}");
    assert!(elsewhere["warnings"].to_string().contains("another machine's rows"), "{elsewhere}");
    assert!(gate("0.01").contains("no gate"));
    assert_eq!(syrk(&regs)["original"], false, "gate removed");
    // The linear gate reads the rows alone: rules without the sources are
    // refused in one line, the linear fit needs none, and eval applies it
    // without --kernels.
    let fit = |kind: &str| {
        tss(&cache)
            .args(["gate", "--kind", kind, "--data", part.to_str().unwrap()])
            .arg("--model")
            .arg(&regs)
            .output()
            .unwrap()
    };
    let o = fit("rules");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("--kernels") && err.lines().count() == 1, "{err}");
    let both = tss(&cache)
        .args(["gate", "--kind", "both", "--kernels", "polybench/paper", "--gate-tn", "1000", "--data"])
        .arg(&part)
        .arg("--model")
        .arg(&regs)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&both.stderr);
    assert!(said.contains("linear estimate") && said.contains("LOG_DATA >"), "both kinds: {said}");
    assert_eq!(syrk(&regs)["original"], true, "the rules fire everywhere, so both do");
    let o = fit("linear");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("linear estimate of ln(untiled / fastest tile)"));
    let table =
        ok(tss(&cache).args(["eval", "--data", part.to_str().unwrap()]).arg("--model").arg(&regs).output().unwrap());
    assert!(table.contains("| **mean** | T1 network |"), "{table}");

    // The blended ranker applies only to loop structures the rows lack:
    // matmul's ranking stays the network's, trmm's is blended.
    let o = tss(&cache).args(["blend", "--data", part.to_str().unwrap()]).arg("--model").arg(&regs).output().unwrap();
    assert!(o.status.success() && String::from_utf8_lossy(&o.stderr).contains("tss: ranker: blends"), "{o:?}");
    let blended = |c: &serde_json::Value| c["warnings"].to_string().contains("new to the model");
    assert!(!blended(&choice(&regs)), "matmul is in the rows");
    let trmm = ok(tss(&cache)
        .args(["predict", "polybench/paper/trmm.c", "--size", "M=100,N=90", "--mode", "t1", "--json", "--no-cache"])
        .args(["-o", dir.path().join("u.c").to_str().unwrap(), "--model", regs.to_str().unwrap()])
        .output()
        .unwrap());
    assert!(blended(&serde_json::from_str(&trmm).unwrap()), "{trmm}");
    // Where eval blends, its report keeps the two scores it summed (none of
    // these rows' structures is new until the ranker forgets them all).
    let report = |m: &Path| -> serde_json::Value {
        let out = tss(&cache).args(["eval", "--json", "--data", part.to_str().unwrap()]).arg("--model").arg(m).output();
        serde_json::from_str(&ok(out.unwrap())).unwrap()
    };
    let instances = |r: &serde_json::Value| r["instances"].as_array().unwrap().clone();
    assert!(instances(&report(&regs)).iter().all(|i| i.get("parts").is_none()));
    let mut meta: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    meta["ranker"]["known"] = serde_json::json!([]);
    std::fs::write(&json, serde_json::to_string(&meta).unwrap()).unwrap();
    for inst in instances(&report(&regs)) {
        let col = |v: &serde_json::Value| v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect::<Vec<_>>();
        let (net, lin) = (col(&inst["parts"]["network"]), col(&inst["parts"]["ranker"]));
        let z = |v: &[f64]| {
            let m = v.iter().sum::<f64>() / v.len() as f64;
            let s = (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / v.len() as f64).sqrt();
            v.iter().map(|x| if s > 0.0 { (x - m) / s } else { 0.0 }).collect::<Vec<_>>()
        };
        let cands = inst["candidates"].as_array().unwrap();
        assert_eq!((net.len(), lin.len()), (cands.len(), cands.len()), "{inst}");
        for ((c, a), b) in cands.iter().zip(z(&net)).zip(z(&lin)) {
            assert!((c[2].as_f64().unwrap() - (a + b)).abs() < 1e-9, "the blend is the sum of the z-scores: {inst}");
        }
    }

    // A corrupt model is a one-line error, not a panic (here its last network).
    std::fs::write(model.join("weights-2.bin"), b"garbage").unwrap();
    let o = tss(&cache)
        .args(["predict", "polybench/paper/matmul.c", "--size", "NI=100,NJ=90,NK=80", "--no-cache"])
        .arg("--model")
        .arg(&model)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("weights-2.bin") && err.lines().count() == 1, "{err}");
    let o = tss(&cache)
        .args(["predict", "polybench/paper/matmul.c", "--size", "NI=100", "--model", "/nonexistent/model"])
        .output()
        .unwrap();
    assert!(!o.status.success());
}

#[test]
fn broken_candidates_are_recorded_and_the_sweep_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let sig = "void tss_kernel(const long *p, const long *e, double **a, const double *s)";
    std::fs::write(
        d.join("crash.h"),
        format!("{sig} {{ *(volatile int *) 0 = 1; }}\n#define tss_kernel tss_kernel_real\n"),
    )
    .unwrap();
    std::fs::write(d.join("wrong.h"), format!("{sig} {{ }}\n#define tss_kernel tss_kernel_real\n")).unwrap();
    std::fs::write(
        d.join("hang.h"),
        format!("{sig} {{ volatile int x = 1; while (x) ; }}\n#define tss_kernel tss_kernel_real\n"),
    )
    .unwrap();
    let cc = d.join("badcc");
    std::fs::write(
        &cc,
        format!(
            "#!/bin/sh\ninc=\nfor a in \"$@\"; do case \"$a\" in\n  -DTSS_T1=8) inc=\"-include {d}/crash.h\";;\n  -DTSS_T1=16) inc=\"-include {d}/wrong.h\";;\n  -DTSS_T1=24) inc=\"-include {d}/hang.h\";;\n  -DTSS_T1=32) echo 'error: injected failure' >&2; exit 1;;\nesac; done\nexec cc \"$@\" $inc\n",
            d = d.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&cc, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = d.join("broken.csv");
    let o = tss(&d.join("cache"))
        .env("CC", &cc)
        .args([
            "collect",
            "--kernels",
            "polybench/paper/matmul.c",
            "--instances",
            "1",
            "--range",
            "80..90",
            "--timeout",
            "2",
        ])
        .args(["--quiet", "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = keys(&out);
    let status = |tile: &str| rows.iter().find(|k| k.2 == tile).map(|k| k.3.clone()).unwrap_or_default();
    assert_eq!(status("untiled"), "ok");
    assert_eq!(status("8x8x8"), "crash");
    assert_eq!(status("16x16x16"), "wrong");
    assert_eq!(status("24x24x24"), "timeout");
    assert_eq!(status("32x32x32"), "compile-error");
    assert_eq!(status("40x40x40"), "ok", "the sweep must go on after failures: {rows:?}");
}

#[test]
fn measure_reports_and_checks() {
    let dir = tempfile::tempdir().unwrap();
    let out = ok(tss(dir.path())
        .args([
            "measure",
            "polybench/linear-algebra/gemm.c",
            "--size",
            "NI=60,NJ=50,NK=40",
            "--tile",
            "7",
            "--tile",
            "16,32,8",
        ])
        .args(["--baseline", "--json"])
        .output()
        .unwrap());
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let res = v["results"].as_array().unwrap();
    assert_eq!(res.len(), 3);
    assert!(res.iter().all(|r| r["status"] == "ok" && r["median"].as_f64().unwrap() > 0.0), "{out}");
}

#[test]
fn vector_tiles_with_a_short_last_column_tile_run() {
    // Regression: in the harness form with constant sizes, gcc 12 -O3 gave
    // the vector tile's block loop a trip count near 2^32 when N = 67 left a
    // last column tile of 3 under AVX-512, and the worker crashed (session
    // 39's collection). These widths and shapes must run and match the
    // untiled output.
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = tss(dir.path());
    cmd.args(["measure", "corpus/blas/trmm-upper.c", "--size", "M=522,N=67", "--reps", "1", "--json"]);
    for tile in ["32x64x32:1x4x1/v3", "32x64x32:1x4x1/v2", "32x64x32:1x4x1/v1", "8x16x16:1x2x1/v1", "64x32x32:1x4x1/v4"]
    {
        cmd.args(["--tile", tile]);
    }
    let out = ok(cmd.output().unwrap());
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let res = v["results"].as_array().unwrap();
    assert_eq!(res.len(), 5, "{out}");
    assert!(res.iter().all(|r| r["status"] == "ok"), "{out}");
}

#[test]
fn parallel_sweep_runs_every_candidate() {
    // Regression: unloading an OpenMP kernel used to unload libgomp under its
    // spinning threads and crash the worker at the next candidate.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("par.csv");
    ok(tss(&dir.path().join("cache"))
        .args(["collect", "--kernels", "polybench/paper/matmul.c", "--instances", "1", "--range", "100..120"])
        .args(["--parallel", "--quiet", "--out", out.to_str().unwrap()])
        .output()
        .unwrap());
    let rows = keys(&out);
    assert!(rows.len() >= 6, "{rows:?}");
    assert!(rows.iter().all(|k| k.3 == "ok"), "{rows:?}");
}

#[test]
fn t6_search_times_the_kept_tiles_and_the_original() {
    let dir = tempfile::tempdir().unwrap();
    let out = ok(tss(dir.path())
        .args(["predict", "polybench/paper/matmul.c", "--size", "NI=150,NJ=140,NK=130", "--json", "--no-cache"])
        .args(["--refine", "0", "-o", dir.path().join("tiled.c").to_str().unwrap()])
        .output()
        .unwrap());
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["strategy"], "T6Search", "{out}");
    assert!(v["refined"].as_array().unwrap().is_empty(), "--refine 0 times nothing more: {out}");
    let kept = v["kept"].as_array().unwrap();
    assert!(!kept.is_empty(), "{out}");
    let measured: Vec<f64> = kept.iter().map(|k| k["measured"].as_f64().expect("every kept tile timed")).collect();
    let fastest = (0..kept.len()).min_by(|&a, &b| measured[a].total_cmp(&measured[b])).unwrap();
    assert_eq!(v["tile"], kept[fastest]["tile"], "T6-Search picks the fastest measured: {out}");
    assert!(v["untiled"].as_f64().is_some_and(|u| u > 0.0), "the original is timed too: {out}");
    let tiled = std::fs::read_to_string(dir.path().join("tiled.c")).unwrap();
    let t1 = kept[fastest]["tile"][0].as_u64().unwrap();
    assert!(tiled.contains(&format!("#define TSS_T1 {t1}\n")), "{tiled}");
}

/// What `tss predict --search N` (no refinement) kept on the paper's matmul,
/// and the JSON it printed.
fn kept_with_search(dir: &Path, n: &str) -> (Vec<serde_json::Value>, String) {
    let out = ok(tss(dir)
        .args(["predict", "polybench/paper/matmul.c", "--size", "NI=150,NJ=140,NK=130", "--emit", "json"])
        .args(["--no-cache", "--refine", "0", "--search", n])
        .output()
        .unwrap());
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    (v["kept"].as_array().unwrap().clone(), out)
}

/// `--search N` sets how many candidates T6-Search times; 0 is refused.
#[test]
fn t6_search_times_as_many_candidates_as_asked() {
    let dir = tempfile::tempdir().unwrap();
    let (kept, out) = kept_with_search(dir.path(), "2");
    assert_eq!(kept.len(), 2, "{out}");
    assert!(kept.iter().all(|k| k["measured"].as_f64().is_some()), "both timed: {out}");
    // One ranked candidate, and the loops as written, which always compete.
    let (kept, out) = kept_with_search(dir.path(), "1");
    assert!((1..=2).contains(&kept.len()), "{out}");
    let original = kept.iter().find(|k| k["untiled"].as_bool() == Some(true));
    assert!(original.is_some_and(|k| k["measured"].as_f64().is_some()), "the original timed: {out}");
    let zero = tss(dir.path())
        .args(["predict", "polybench/paper/matmul.c", "--size", "NI=150,NJ=140,NK=130", "--search", "0"])
        .output()
        .unwrap();
    assert!(!zero.status.success() && String::from_utf8_lossy(&zero.stderr).contains("--search"), "{zero:?}");
}

/// T6-Search's refinement times register tiles and shapes from its pick,
/// within the budget, takes the fastest, and writes that config's code,
/// which prints what the original prints.
#[test]
fn t6_search_refines_with_register_tiles_and_shapes() {
    let dir = tempfile::tempdir().unwrap();
    let tiled = dir.path().join("tiled.c");
    let out = ok(tss(dir.path())
        .args(["predict", "polybench/paper/matmul.c", "--size", "NI=150,NJ=140,NK=130", "--json", "--no-cache"])
        .args(["--refine", "7", "-o", tiled.to_str().unwrap()])
        .output()
        .unwrap());
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let refined = v["refined"].as_array().unwrap();
    assert!((2..=8).contains(&refined.len()), "the start and at most 7 more: {out}");
    let kept = v["kept"].as_array().unwrap();
    let start =
        kept.iter().filter_map(|k| Some((k["measured"].as_f64()?, &k["tile"]))).min_by(|a, b| a.0.total_cmp(&b.0));
    let start_tile = start.unwrap().1.as_array().unwrap();
    // The refinement starts from the fastest kept config (with the built-in
    // model of the space, possibly a register tile already).
    let first: tss::Config = refined[0]["config"].as_str().unwrap().parse().unwrap();
    for (k, t) in start_tile.iter().enumerate() {
        assert_eq!(first.tile(k), t.as_u64().unwrap() as usize, "the refinement starts at the fastest kept: {out}");
    }
    assert!(refined[1]["config"].as_str().unwrap().contains(':'), "the register round comes first: {out}");
    let fastest = refined
        .iter()
        .filter_map(|t| Some((t["seconds"].as_f64()?, t["config"].as_str()?)))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .unwrap();
    let chosen: tss::Config = fastest.1.parse().unwrap();
    assert_eq!(v["tile"].as_array().unwrap().len(), 3, "{out}");
    for (k, t) in v["tile"].as_array().unwrap().iter().enumerate() {
        assert_eq!(t.as_u64().unwrap() as usize, chosen.tile(k), "the fastest refined config is chosen: {out}");
    }
    let code = std::fs::read_to_string(&tiled).unwrap();
    assert!(code.contains(&format!("#define TSS_T1 {}\n", chosen.tile(0))), "{code}");
    let sizes = ["-DPOLYBENCH_DUMP_ARRAYS", "-DNI=150", "-DNJ=140", "-DNK=130"];
    let want = common::compile_and_run(&repo().join("polybench/paper/matmul.c"), &dir.path().join("a"), &sizes);
    assert_eq!(common::compile_and_run(&tiled, &dir.path().join("b"), &sizes), want, "{out}");
}

/// `tss adapt` on a small budget: rows in the cache, a model fitted from the
/// built-in one and recorded as this machine's, which `tss machine` and
/// `tss predict` then use and name.
#[test]
fn adapt_fits_a_model_that_predict_then_uses() {
    let dir = tempfile::tempdir().unwrap();
    let out = ok(tss(dir.path())
        .args(["adapt", "--budget", "20s", "--range", "70..110", "--per-instance", "6", "--reps", "1", "--quiet"])
        // One object per config rather than per instance: the budget buys
        // rows, not compiles, on a loaded test machine.
        .args(["--sizes", "runtime"])
        .output()
        .unwrap());
    assert!(out.contains("adapted (tune) from the built-in serial model"), "{out}");
    let machines: Vec<_> = std::fs::read_dir(dir.path().join("models")).unwrap().flatten().collect();
    assert_eq!(machines.len(), 1, "one machine's directory");
    let json = std::fs::read_to_string(machines[0].path().join("serial/model.json")).unwrap();
    let meta: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(meta["data"]["machine"]["cflags"], "-O2", "{json}");
    assert!(meta["data"]["rows"].as_u64().unwrap() >= 6, "{json}");
    let machine = ok(tss(dir.path()).arg("machine").output().unwrap());
    assert!(machine.contains("serial model (model adapted to this machine"), "{machine}");
    assert!(machine.contains("trained on this kind of machine"), "{machine}");
    let tiled = dir.path().join("tiled.c");
    let out = ok(tss(dir.path())
        .args(["predict", "polybench/paper/matmul.c", "--size", "NI=150,NJ=140,NK=130", "--mode", "t1", "--json"])
        .args(["--no-cache", "-o", tiled.to_str().unwrap()])
        .output()
        .unwrap());
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["model"].as_str().unwrap().starts_with("model adapted to this machine"), "{out}");
    assert!(
        v["warnings"].as_array().unwrap().iter().all(|w| !w.as_str().unwrap().contains("another machine")),
        "{out}"
    );
}

/// `tss adapt --model` on a model of the per-dimension space: it times the
/// named kernels' space (a sample and the model's own picks), fine-tunes that model and
/// saves it beside the built-in one's place under its own name, leaving the
/// default model alone; `tss predict --model` then chooses with it.
#[test]
fn adapt_fits_a_space_model_from_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    let out = ok(tss(dir.path())
        .args(["adapt", "--budget", "20s", "--model", "trained/corpus-serial", "--kernels", "corpus/blas/gemm-ikj.c"])
        .args(["--range", "40..70", "--min-work", "0", "--per-instance", "2", "--picks", "2", "--reps", "1", "--quiet"])
        .args(["--sizes", "runtime"])
        .output()
        .unwrap());
    // Run from the repository's root, where the model's training rows are:
    // they are rehearsed, and the networks tuned.
    assert!(out.contains("adapted (tune) from the trained/corpus-serial"), "{out}");
    assert!(out.contains("instances of the base model's training rows (data/"), "{out}");
    // Nothing is held out for a model of the space: the last epoch is kept.
    let kept = out.split("epoch ").nth(1).and_then(|s| s.split(' ').next()).and_then(|n| n.parse::<u32>().ok());
    let tuned =
        out.split(" epochs tuned").next().and_then(|s| s.rsplit('(').next()).and_then(|n| n.parse::<u32>().ok());
    assert!(kept.is_some() && kept == tuned, "the last epoch kept: {out}");
    let machines: Vec<_> = std::fs::read_dir(dir.path().join("models")).unwrap().flatten().collect();
    assert_eq!(machines.len(), 1, "one machine's directory");
    let saved = machines[0].path().join("serial-corpus-serial");
    assert!(!machines[0].path().join("serial").exists(), "the default model is not replaced");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(saved.join("model.json")).unwrap()).unwrap();
    let shipped: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("trained/corpus-serial/model.json").unwrap()).unwrap();
    assert_eq!(meta["config"]["feature_set"], shipped["config"]["feature_set"], "the set it was adapted from: {meta}");
    let rows = meta["data"]["rows"].as_u64().unwrap();
    assert!(rows >= 4, "sampled configs and the model's picks were timed: {meta}");
    assert!(out.contains(&format!("use it with --model {}", saved.display())), "{out}");
    // A zero budget refits on the same rows without timing anything; a
    // `--fit` given rehearses nothing.
    let out = ok(tss(dir.path())
        .args(["adapt", "--budget", "0", "--model", "trained/corpus-serial", "--fit", "correct", "--sizes", "runtime"])
        .arg("--quiet")
        .output()
        .unwrap());
    assert!(out.contains(&format!("measured 0 rows in 0.0 min; {rows} rows")), "{out}");
    assert!(out.contains("adapted (correct)") && !out.contains("rehearsed"), "{out}");
    // Rehearsing other rows beside them tunes, and says how many it took.
    let out = ok(tss(dir.path())
        .args(["adapt", "--budget", "0", "--model", "trained/corpus-serial", "--sizes", "runtime", "--quiet"])
        .args(["--rehearse", "data/intel-xeon-avx512-l2-2m/harness3-constant/adapt-serial-space-picks.csv"])
        .output()
        .unwrap());
    assert!(out.contains("adapted (tune)") && out.contains("instances of the --rehearse files beside them"), "{out}");
    let tiled = dir.path().join("tiled.c");
    let out = ok(tss(dir.path())
        .args(["predict", "corpus/blas/gemm-ikj.c", "--size", "NI=90,NJ=70,NK=50", "--mode", "t1", "--json"])
        .args(["--model", saved.to_str().unwrap(), "--no-cache", "-o", tiled.to_str().unwrap()])
        .output()
        .unwrap());
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["model"].as_str().unwrap(), saved.display().to_string(), "{out}");
}
