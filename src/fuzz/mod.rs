//! Differential testing of `tss tile` on random programs and on mutants of
//! the kernels in `polybench/`.
//!
//! Each case runs the real tool (`tss tile` as a subprocess, so a panic,
//! crash or hang is an outcome, not the end of the run), compiles the
//! original and the tiled file with the C compiler, runs both and compares
//! their output byte for byte:
//! - serially, for tile sizes 1, 2, 3, 7, 32 and an odd per-dimension shape;
//! - unroll-and-jammed by factors 1-8 (serial, reversed, parallel), half
//!   of the programs with `--no-sink`, half (independently) with `--pack`,
//!   half with a vector register tile (`--vector 1..3`);
//! - with `--parallel` under 2 and 3 OpenMP threads;
//! - with every loop that carries `omp parallel for` or `GCC ivdep` run
//!   backwards (`--reverse-marked`): those pragmas claim the iterations are
//!   independent, and a claim that fails changes the output;
//! - and every scalar assigned inside an `omp parallel for` body must be
//!   private to it ([`unprivatised`]).
//!
//! Mutants ([`mutate`]) must give a one-line error or equal output: never a
//! panic, crash or hang. A mutant whose original program is itself broken
//! (does not compile, or trips the address and undefined-behaviour
//! sanitizers) only has to be handled without a panic or hang.

pub mod mutate;
pub mod programs;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Where and how a fuzzing run works.
#[derive(Clone, Debug)]
pub struct Config {
    /// The `tss` executable under test.
    pub tss: PathBuf,
    /// C compiler.
    pub cc: String,
    /// Scratch directory (one subdirectory per case, removed when it passes).
    pub work: PathBuf,
    /// Longest a `tss tile` call may take before it counts as a hang.
    pub tile_timeout: Duration,
    /// Longest one run of a compiled program may take.
    pub run_timeout: Duration,
    /// Directory of the kernels mutants are made from (`polybench/`).
    pub kernels: PathBuf,
}

/// What happened to one case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// Accepted, and every variant printed what the original prints.
    Equal,
    /// Refused with a one-line `file:line:col` error.
    Rejected,
    /// The input itself is broken (does not compile or has undefined
    /// behaviour), and tss handled it without a panic or hang.
    Invalid,
    /// A variant printed something else than the original.
    Wrong,
    /// An error message that is not one line starting with `tss: `.
    BadError,
    /// `tss tile` panicked.
    Panic,
    /// `tss tile` died of a signal, or tiled code crashed where the original did not.
    Crash,
    /// `tss tile` exceeded its timeout, or tiled code did where the original did not.
    Hang,
}

impl Outcome {
    /// Outcomes that are defects of tss.
    pub fn is_failure(self) -> bool {
        matches!(self, Outcome::Wrong | Outcome::BadError | Outcome::Panic | Outcome::Crash | Outcome::Hang)
    }

    pub fn name(self) -> &'static str {
        match self {
            Outcome::Equal => "equal",
            Outcome::Rejected => "rejected",
            Outcome::Invalid => "invalid input",
            Outcome::Wrong => "WRONG",
            Outcome::BadError => "BAD ERROR",
            Outcome::Panic => "PANIC",
            Outcome::Crash => "CRASH",
            Outcome::Hang => "HANG",
        }
    }
}

/// The result of one case.
#[derive(Clone, Debug)]
pub struct Case {
    /// `program 17` or `mutant 4 (gemm.c)`.
    pub name: String,
    pub outcome: Outcome,
    /// What differed, or the error message.
    pub detail: String,
    /// Longest `tss tile` call of the case, in seconds.
    pub tile_secs: f64,
    /// Where the failing case's files were kept.
    pub kept: Option<PathBuf>,
}

/// Counts per outcome, the slowest `tss tile` calls, and every failure.
#[derive(Default, Debug)]
pub struct Summary {
    pub counts: BTreeMap<Outcome, usize>,
    /// (seconds, case name), slowest first, at most 5.
    pub slowest: Vec<(f64, String)>,
    pub failures: Vec<Case>,
}

impl Summary {
    pub fn add(&mut self, case: Case) {
        *self.counts.entry(case.outcome).or_default() += 1;
        self.slowest.push((case.tile_secs, case.name.clone()));
        self.slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
        self.slowest.truncate(5);
        if case.outcome.is_failure() {
            self.failures.push(case);
        }
    }

    pub fn total(&self) -> usize {
        self.counts.values().sum()
    }

    /// Number of cases that are defects of tss.
    pub fn failed(&self) -> usize {
        self.counts.iter().filter(|(o, _)| o.is_failure()).map(|(_, n)| n).sum()
    }
}

/// What one fuzzing run covers.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Random programs, seeds `first .. first + programs`.
    pub programs: u64,
    /// Mutants, seeds `first .. first + mutants`.
    pub mutants: u64,
    pub first: u64,
    /// Cases checked at once.
    pub jobs: usize,
}

/// Runs every case of `plan`, calling `progress` after each one.
pub fn run(cfg: &Config, plan: &Plan, progress: &(dyn Fn(&Case) + Sync)) -> Summary {
    let kernels = mutate::kernel_files(&cfg.kernels);
    let cases: Vec<(bool, u64)> = (plan.first..plan.first + plan.programs)
        .map(|s| (true, s))
        .chain((plan.first..plan.first + if kernels.is_empty() { 0 } else { plan.mutants }).map(|s| (false, s)))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let summary = std::sync::Mutex::new(Summary::default());
    std::thread::scope(|scope| {
        for _ in 0..plan.jobs.max(1) {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&(is_program, seed)) = cases.get(k) else { break };
                    let case = if is_program { check_program(cfg, seed) } else { check_mutant(cfg, seed, &kernels) };
                    progress(&case);
                    summary.lock().unwrap_or_else(|e| e.into_inner()).add(case);
                }
            });
        }
    });
    summary.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// [`run`] with a progress bar (cases, failures so far, ETA) unless `quiet`;
/// each failure is printed as it happens.
pub fn run_with_progress(cfg: &Config, plan: &Plan, quiet: bool) -> Summary {
    let total = plan.programs + plan.mutants;
    let bar = if quiet { indicatif::ProgressBar::hidden() } else { indicatif::ProgressBar::new(total) };
    bar.set_style(
        indicatif::ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} cases, ETA {eta} {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    let failed = std::sync::atomic::AtomicUsize::new(0);
    let summary = run(cfg, plan, &|case| {
        if case.outcome.is_failure() {
            let n = failed.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            bar.set_message(format!("{n} failed"));
            bar.suspend(|| eprintln!("{}: {}: {}", case.name, case.outcome.name(), first_lines(&case.detail, 3)));
        }
        bar.inc(1);
    });
    bar.finish_and_clear();
    summary
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{} cases", self.total())?;
        for (o, n) in &self.counts {
            writeln!(f, "  {:<14} {n}", o.name())?;
        }
        writeln!(f, "slowest tss tile calls:")?;
        for (secs, name) in &self.slowest {
            writeln!(f, "  {secs:.3} s  {name}")?;
        }
        for c in &self.failures {
            let kept = c.kept.as_ref().map_or(String::new(), |k| format!(" (files in {})", k.display()));
            writeln!(f, "{}: {}{kept}\n  {}", c.name, c.outcome.name(), c.detail.replace('\n', "\n  "))?;
        }
        writeln!(f, "{} passed, {} failed", self.total() - self.failed(), self.failed())
    }
}

/// Tile configurations every accepted random program runs with (the last
/// size repeats for deeper bands).
const SERIAL_TILES: [&[usize]; 6] = [&[1], &[2], &[3], &[7], &[32], &[5, 1, 3, 2]];
const PARALLEL_TILES: [&[usize]; 4] = [&[1], &[3], &[7], &[2, 5, 1, 3]];
const REVERSED_TILES: [&[usize]; 3] = [&[1], &[7], &[3, 2, 5]];
const UNROLLED_TILES: [&[usize]; 4] = [&[1], &[3], &[8], &[7, 2, 16, 5]];

/// Unroll factors for a program, `a,b,c,d` with each in 1..=8, drawn from a
/// hash of its text so that runs are reproducible and programs differ.
fn unroll_factors(source: &str) -> String {
    let h = crate::harness::compile::fnv1a(source.bytes());
    let f: Vec<String> = (0..4).map(|k| (1 + (h >> (8 * k)) % 8).to_string()).collect();
    f.join(",")
}

/// Borrowed views of owned flags.
fn as_strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Checks random program `seed`.
/// The `tss tile` flags of a loop form drawn from two bits of a hash:
/// none (stepped) half the time, `--form index` or `--form inline` a
/// quarter each.
fn loop_form(bits: u64) -> Vec<&'static str> {
    match bits & 3 {
        2 => vec!["--form", "index"],
        3 => vec!["--form", "inline"],
        _ => Vec::new(),
    }
}

pub fn check_program(cfg: &Config, seed: u64) -> Case {
    let name = format!("program {seed}");
    let dir = cfg.work.join(format!("p{seed}"));
    let mut c = CaseRun::new(cfg, &name, &dir);
    let p = programs::program(seed);
    let outcome = c.program(&p);
    c.finish(outcome)
}

/// Checks a SCoP written by hand (arrays `A`, `B`, `C` 2-D and `x`, `y` 1-D,
/// scalars `s`, `t`, parameters `N`, `M`, iterators `i`, `j`, `k`, `l`),
/// wrapped like a random program and run at `sizes`: regression tests.
pub fn check_scop(cfg: &Config, name: &str, body: &str, sizes: &[[i64; 2]]) -> Case {
    let dir = cfg.work.join(name);
    let mut c = CaseRun::new(cfg, name, &dir);
    let p = programs::Program { source: programs::wrap(body), sizes: sizes.to_vec() };
    let outcome = c.program(&p);
    c.finish(outcome)
}

/// Checks mutant `seed` of the kernels under `cfg.kernels`.
pub fn check_mutant(cfg: &Config, seed: u64, kernels: &[PathBuf]) -> Case {
    let dir = cfg.work.join(format!("m{seed}"));
    let m = mutate::mutant(kernels, seed);
    let name = format!("mutant {seed} ({})", m.origin);
    let mut c = CaseRun::new(cfg, &name, &dir);
    let outcome = c.mutant(&m);
    c.finish(outcome)
}

/// The state of one case while it runs.
struct CaseRun<'a> {
    cfg: &'a Config,
    name: String,
    dir: PathBuf,
    tile_secs: f64,
    detail: String,
}

/// How one subprocess ended.
enum Exit {
    Ok(String),
    Failed { code: Option<i32>, stderr: String },
    Signal(String),
    Timeout,
}

type Verdict = Result<(), (Outcome, String)>;

impl<'a> CaseRun<'a> {
    fn new(cfg: &'a Config, name: &str, dir: &Path) -> Self {
        let _ = std::fs::remove_dir_all(dir);
        let _ = std::fs::create_dir_all(dir);
        Self { cfg, name: name.into(), dir: dir.into(), tile_secs: 0.0, detail: String::new() }
    }

    fn finish(self, outcome: Outcome) -> Case {
        let kept = if outcome.is_failure() {
            Some(self.dir.clone())
        } else {
            let _ = std::fs::remove_dir_all(&self.dir);
            None
        };
        Case { name: self.name, outcome, detail: self.detail, tile_secs: self.tile_secs, kept }
    }

    fn verdict(&mut self, v: Verdict, ok: Outcome) -> Outcome {
        match v {
            Ok(()) => ok,
            Err((o, d)) => {
                self.detail = d;
                o
            }
        }
    }

    fn program(&mut self, p: &programs::Program) -> Outcome {
        let src = self.dir.join("prog.c");
        if let Err(e) = std::fs::write(&src, &p.source) {
            self.detail = format!("cannot write {}: {e}", src.display());
            return Outcome::Invalid;
        }
        let orig = self.dir.join("orig");
        if let Err(e) = self.compile(&src, &orig, &[]) {
            self.detail = format!("the generated program does not compile: {e}");
            return Outcome::Invalid;
        }
        let mut expected = Vec::new();
        for size in &p.sizes {
            match self.run(&orig, &size_args(size, &[1]), None) {
                Exit::Ok(out) => expected.push(out),
                _ => {
                    self.detail = format!("the original fails at N={} M={}", size[0], size[1]);
                    return Outcome::Invalid;
                }
            }
        }
        // Serial first: it decides between accepted and rejected.
        match self.tile(&src, "serial.c", &[]) {
            Err(v) => return self.verdict(Err(v), Outcome::Equal),
            Ok(None) => return Outcome::Rejected,
            Ok(Some(_)) => {}
        }
        let v = self.variants(p, &src, &expected);
        self.verdict(v, Outcome::Equal)
    }

    /// Every tiled variant of an accepted program against the original's output.
    fn variants(&mut self, p: &programs::Program, src: &Path, expected: &[String]) -> Verdict {
        let runtime_tiles = tile_defines();
        let serial = self.dir.join("serial");
        self.compile(&self.dir.join("serial.c"), &serial, &runtime_tiles).map_err(compile_failure)?;
        for tiles in SERIAL_TILES {
            self.compare(&serial, p, expected, tiles, None, "serial")?;
        }
        // The reversed builds in a loop form drawn from the text (stepped half
        // the time, index and inline a quarter each).
        let form = loop_form(crate::harness::compile::fnv1a(p.source.bytes()) >> 36);
        let with_form = |flags: &[&'static str]| -> Vec<&'static str> { flags.iter().chain(&form).copied().collect() };
        let what = |text: &str| format!("{text}{}", form.iter().map(|f| format!(" {f}")).collect::<String>());
        let rev = self.tiled_build(src, "serial-rev", &with_form(&["--reverse-marked"]), &runtime_tiles)?;
        for tiles in REVERSED_TILES {
            self.compare(&rev, p, expected, tiles, None, &what("serial, ivdep loops reversed"))?;
        }
        let mut omp = runtime_tiles.clone();
        omp.push("-fopenmp".into());
        let par = self.tiled_build(src, "parallel", &["--parallel"], &omp)?;
        let code = std::fs::read_to_string(self.dir.join("parallel.c")).unwrap_or_default();
        if let Some(v) = unprivatised(&code, &programs::SCALARS) {
            return Err((Outcome::Wrong, format!("--parallel: '{v}' is assigned in a parallel loop but not private")));
        }
        for threads in [2, 3] {
            for tiles in PARALLEL_TILES {
                self.compare(&par, p, expected, tiles, Some(threads), "--parallel")?;
            }
        }
        let prev =
            self.tiled_build(src, "parallel-rev", &with_form(&["--parallel", "--reverse-marked"]), &runtime_tiles)?;
        for tiles in REVERSED_TILES {
            self.compare(&prev, p, expected, tiles, None, &what("--parallel, marked loops reversed"))?;
        }
        self.unrolled(p, src, expected)
    }

    /// The program unroll-and-jammed by factors drawn from its text (1-8,
    /// mixed per dimension): serial, with the `ivdep` loops (which now hold
    /// the jammed copies) reversed, and `--parallel` under 2 threads.
    fn unrolled(&mut self, p: &programs::Program, src: &Path, expected: &[String]) -> Verdict {
        let unroll = unroll_factors(&p.source);
        // Half the programs (by a bit of the same hash) also keep every
        // band's point loops together, the other loop order a config may
        // pick; half (by another bit) pack transposed reads.
        // Half (by a third bit) take a vector register tile 1-3 vectors wide,
        // and half (by a fourth and fifth) another loop form, index or inline.
        let hash = crate::harness::compile::fnv1a(p.source.bytes());
        let mut order: Vec<&'static str> = Vec::new();
        if hash >> 40 & 1 == 1 {
            order.push("--no-sink");
        }
        if hash >> 41 & 1 == 1 {
            order.push("--pack");
        }
        if hash >> 42 & 1 == 1 {
            order.extend(["--vector", ["1", "2", "3"][(hash >> 43) as usize % 3]]);
        }
        order.extend(loop_form(hash >> 38));
        let flags = |extra: &[&'static str]| -> Vec<String> {
            ["--unroll", unroll.as_str()].iter().chain(&order).chain(extra).map(|s| s.to_string()).collect()
        };
        let what = format!("--unroll {unroll}{}", order.iter().map(|o| format!(" {o}")).collect::<String>());
        let runtime_tiles = tile_defines();
        let serial = self.tiled_build(src, "unrolled", &as_strs(&flags(&[])), &runtime_tiles)?;
        for tiles in UNROLLED_TILES {
            self.compare(&serial, p, expected, tiles, None, &what)?;
        }
        let rev = self.tiled_build(src, "unrolled-rev", &as_strs(&flags(&["--reverse-marked"])), &runtime_tiles)?;
        for tiles in REVERSED_TILES {
            self.compare(&rev, p, expected, tiles, None, &format!("{what}, ivdep loops reversed"))?;
        }
        let mut omp = runtime_tiles;
        omp.push("-fopenmp".into());
        let par = self.tiled_build(src, "unrolled-par", &as_strs(&flags(&["--parallel"])), &omp)?;
        for tiles in UNROLLED_TILES {
            self.compare(&par, p, expected, tiles, Some(2), &format!("--parallel {what}"))?;
        }
        Ok(())
    }

    /// Tiles `src` with `flags` into `<stem>.c` and compiles it to `<stem>`.
    fn tiled_build(
        &mut self,
        src: &Path,
        stem: &str,
        flags: &[&str],
        cflags: &[String],
    ) -> Result<PathBuf, (Outcome, String)> {
        match self.tile(src, &format!("{stem}.c"), flags)? {
            Some(_) => {}
            None => {
                return Err((
                    Outcome::Wrong,
                    format!("tss tile {} refused what it accepted serially", flags.join(" ")),
                ));
            }
        }
        let exe = self.dir.join(stem);
        self.compile(&self.dir.join(format!("{stem}.c")), &exe, cflags).map_err(compile_failure)?;
        Ok(exe)
    }

    /// Runs `exe` at every size of `p` with `tiles` and compares with `expected`.
    fn compare(
        &self,
        exe: &Path,
        p: &programs::Program,
        expected: &[String],
        tiles: &[usize],
        threads: Option<usize>,
        what: &str,
    ) -> Verdict {
        for (size, want) in p.sizes.iter().zip(expected) {
            let args = size_args(size, tiles);
            let label = || {
                let t: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
                let th = threads.map_or(String::new(), |n| format!(", {n} threads"));
                format!("{what}, tiles {}, N={} M={}{th}", t.join(","), size[0], size[1])
            };
            match self.run(exe, &args, threads) {
                Exit::Ok(got) if got == *want => {}
                Exit::Ok(got) => {
                    return Err((Outcome::Wrong, format!("{}: printed\n{got}expected\n{want}", label())));
                }
                Exit::Timeout => return Err((Outcome::Hang, format!("{}: tiled code does not finish", label()))),
                Exit::Signal(s) | Exit::Failed { stderr: s, .. } => {
                    return Err((Outcome::Crash, format!("{}: tiled code fails: {s}", label())));
                }
            }
        }
        Ok(())
    }

    fn mutant(&mut self, m: &mutate::Mutant) -> Outcome {
        let src = self.dir.join(&m.file_name);
        if let Err(e) = std::fs::write(&src, &m.source) {
            self.detail = format!("cannot write {}: {e}", src.display());
            return Outcome::Invalid;
        }
        let orig = self.dir.join("orig");
        let flags = mutate::cflags(&self.cfg.kernels);
        // The sanitizers miss reads of uninitialised variables (a deleted
        // loop leaves its iterator unset); gcc's warning catches them.
        let mut strict = flags.clone();
        strict.push("-Werror=uninitialized".into());
        let original_ok = self.compile_with(&src, &orig, &strict, false).is_ok();
        let expected = if original_ok {
            match self.run(&orig, &[], None) {
                Exit::Ok(out) => Some(out),
                _ => None,
            }
        } else {
            None
        };
        let accepted = match self.tile(&src, "tiled.c", &["--tile", "7,3,5,2"]) {
            Err(v) => return self.verdict(Err(v), Outcome::Equal),
            Ok(a) => a.is_some(),
        };
        let Some(expected) = expected else {
            self.detail = "the mutant itself does not compile or has undefined behaviour".into();
            return Outcome::Invalid;
        };
        if !accepted {
            return Outcome::Rejected;
        }
        let v = self.mutant_variants(&src, &expected, &flags);
        self.verdict(v, Outcome::Equal)
    }

    fn mutant_variants(&mut self, src: &Path, expected: &str, flags: &[String]) -> Verdict {
        let serial = self.dir.join("tiled");
        self.compile(&self.dir.join("tiled.c"), &serial, flags).map_err(compile_failure)?;
        self.compare_once(&serial, expected, None, "serial, tiles 7,3,5,2")?;
        let unroll = ["--tile", "7,3,5,2", "--unroll", "3,2,4"];
        let jammed = self.tiled_build(src, "unrolled", &unroll, flags)?;
        self.compare_once(&jammed, expected, None, "serial, tiles 7,3,5,2, unroll 3,2,4")?;
        let mut omp = flags.to_vec();
        omp.push("-fopenmp".into());
        let par = self.tiled_build(src, "parallel", &["--parallel", "--tile", "3,8,2"], &omp)?;
        self.compare_once(&par, expected, Some(2), "--parallel, tiles 3,8,2")?;
        self.compare_once(&par, expected, Some(3), "--parallel, tiles 3,8,2")
    }

    fn compare_once(&self, exe: &Path, want: &str, threads: Option<usize>, what: &str) -> Verdict {
        match self.run(exe, &[], threads) {
            Exit::Ok(got) if got == want => Ok(()),
            Exit::Ok(_) => Err((Outcome::Wrong, format!("{what}: the tiled program prints other arrays"))),
            Exit::Timeout => Err((Outcome::Hang, format!("{what}: tiled code does not finish"))),
            Exit::Signal(s) | Exit::Failed { stderr: s, .. } => {
                Err((Outcome::Crash, format!("{what}: tiled code fails: {}", first_lines(&s, 3))))
            }
        }
    }

    /// `tss tile src -o out flags`: `Ok(Some(secs))` when it wrote the file,
    /// `Ok(None)` on a proper one-line error, `Err` on any defect.
    fn tile(&mut self, src: &Path, out: &str, flags: &[&str]) -> Result<Option<f64>, (Outcome, String)> {
        let mut cmd = Command::new(&self.cfg.tss);
        cmd.arg("tile").arg(src).arg("-o").arg(self.dir.join(out)).args(flags);
        let start = Instant::now();
        let exit = self.spawn(cmd, self.cfg.tile_timeout);
        let secs = start.elapsed().as_secs_f64();
        self.tile_secs = self.tile_secs.max(secs);
        let what = format!("tss tile {}", flags.join(" "));
        match exit {
            Exit::Ok(_) => Ok(Some(secs)),
            Exit::Failed { code: Some(101), stderr } => {
                Err((Outcome::Panic, format!("{what}: {}", first_lines(&stderr, 4))))
            }
            Exit::Failed { stderr, .. } => {
                let lines: Vec<&str> = stderr.lines().collect();
                if lines.len() == 1 && lines[0].starts_with("tss: ") {
                    self.detail = lines[0].to_string();
                    Ok(None)
                } else {
                    Err((Outcome::BadError, format!("{what}: {}", first_lines(&stderr, 4))))
                }
            }
            Exit::Signal(s) => Err((Outcome::Crash, format!("{what}: {s}"))),
            Exit::Timeout => Err((Outcome::Hang, format!("{what}: no answer after {:?}", self.cfg.tile_timeout))),
        }
    }

    fn compile(&self, src: &Path, exe: &Path, flags: &[String]) -> Result<(), String> {
        self.compile_with(src, exe, flags, true)
    }

    /// `quiet` silences warnings (`-w` would also silence those `flags` turn into errors).
    fn compile_with(&self, src: &Path, exe: &Path, flags: &[String], quiet: bool) -> Result<(), String> {
        let mut cmd = Command::new(&self.cfg.cc);
        // No contraction into FMAs: the tiled code must round exactly as the original.
        cmd.args(["-O1", "-ffp-contract=off"]).args(if quiet { &["-w"][..] } else { &[] });
        cmd.args(flags).arg(src).arg("-o").arg(exe).arg("-lm");
        match self.spawn(cmd, Duration::from_secs(120)) {
            Exit::Ok(_) => Ok(()),
            Exit::Failed { stderr, .. } | Exit::Signal(stderr) => Err(first_lines(&stderr, 6)),
            Exit::Timeout => Err("the compiler timed out".into()),
        }
    }

    fn run(&self, exe: &Path, args: &[String], threads: Option<usize>) -> Exit {
        let mut cmd = Command::new(exe);
        cmd.args(args).env("OMP_NUM_THREADS", threads.unwrap_or(1).to_string());
        // The sanitizers' reports must fail the run, and leaks do not matter here.
        // The wide redzone catches a row index one past the end (`C[N][j]`),
        // which the default 16 bytes let slip into the next array.
        cmd.env("ASAN_OPTIONS", "detect_leaks=0:abort_on_error=0:redzone=1024");
        self.spawn(cmd, self.cfg.run_timeout)
    }

    /// Runs `cmd` with its output in files of the case directory, killing it
    /// after `timeout`.
    fn spawn(&self, mut cmd: Command, timeout: Duration) -> Exit {
        let out_path = self.dir.join("stdout.txt");
        let err_path = self.dir.join("stderr.txt");
        let (Ok(out), Ok(err)) = (std::fs::File::create(&out_path), std::fs::File::create(&err_path)) else {
            return Exit::Signal(format!("cannot create files in {}", self.dir.display()));
        };
        cmd.stdin(Stdio::null()).stdout(out).stderr(err);
        let mut child = match cmd.spawn() {
            Ok(c) => c,
            Err(e) => return Exit::Signal(format!("cannot start: {e}")),
        };
        let start = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(s)) => break s,
                Ok(None) if start.elapsed() > timeout => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Exit::Timeout;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                Err(e) => return Exit::Signal(format!("wait failed: {e}")),
            }
        };
        let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
        let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
        use std::os::unix::process::ExitStatusExt;
        match (status.code(), status.signal()) {
            (Some(0), _) => Exit::Ok(stdout),
            (_, Some(sig)) => Exit::Signal(format!("signal {sig}; {}", first_lines(&stderr, 3))),
            (code, None) => Exit::Failed { code, stderr },
        }
    }
}

fn compile_failure(e: String) -> (Outcome, String) {
    (Outcome::Wrong, format!("tiled code does not compile: {e}"))
}

/// `-DTSS_Tk=tss_fuzz_t[k-1]`: tile sizes read at run time.
fn tile_defines() -> Vec<String> {
    (0..programs::MAX_TILE_DIMS).map(|k| format!("-DTSS_T{}=tss_fuzz_t[{k}]", k + 1)).collect()
}

fn size_args(size: &[i64; 2], tiles: &[usize]) -> Vec<String> {
    size.iter().map(|v| v.to_string()).chain(tiles.iter().map(|t| t.to_string())).collect()
}

fn first_lines(s: &str, n: usize) -> String {
    s.lines().take(n).collect::<Vec<_>>().join(" | ")
}

/// The first variable assigned inside the body of an `omp parallel for`
/// loop that is neither that loop's iterator, nor in its `private(..)` list,
/// nor declared inside the body, nor one of the SCoP's own `scalars`: a data
/// race under OpenMP.
///
/// SCoP scalars are exempt on purpose: they are modelled with dependences
/// like arrays, so a loop whose iterations could both write one is never
/// marked parallel, and at most one iteration writes it (privatising it
/// would lose its value after the loop).
pub fn unprivatised(code: &str, scalars: &[&str]) -> Option<String> {
    let lines: Vec<&str> = code.lines().collect();
    for (n, line) in lines.iter().enumerate() {
        let Some(rest) = line.trim().strip_prefix("#pragma omp parallel for") else { continue };
        let private: Vec<String> = rest
            .split("private(")
            .nth(1)
            .and_then(|p| p.split(')').next())
            .map(|p| p.split(',').map(|v| v.trim().to_string()).collect())
            .unwrap_or_default();
        let body = loop_text(&lines[n + 1..]);
        let own = body.trim_start().strip_prefix("for (").and_then(|h| h.split('=').next()).map(str::trim);
        let declared = declared_names(&body);
        for v in assigned_scalars(&body) {
            let exempt = scalars.contains(&v.as_str());
            if Some(v.as_str()) != own && !private.contains(&v) && !declared.contains(&v) && !exempt {
                return Some(v);
            }
        }
    }
    None
}

/// The text of the loop starting at `lines[0]`, up to its closing brace.
fn loop_text(lines: &[&str]) -> String {
    let mut depth = 0i32;
    let mut out = String::new();
    for l in lines {
        out.push_str(l);
        out.push('\n');
        depth += l.matches('{').count() as i32 - l.matches('}').count() as i32;
        if depth <= 0 && l.contains('}') {
            break;
        }
    }
    out
}

/// Identifiers assigned as plain scalars (`x = `, `x += `, `for (x = `).
fn assigned_scalars(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut k = 0;
    while k < b.len() {
        if b[k].is_ascii_alphabetic() || b[k] == b'_' {
            let start = k;
            while k < b.len() && (b[k].is_ascii_alphanumeric() || b[k] == b'_') {
                k += 1;
            }
            let prev = text[..start].trim_end().chars().last();
            let mut j = k;
            while j < b.len() && b[j] == b' ' {
                j += 1;
            }
            let after = &text[j..];
            let is_assign = ["=", "+=", "-=", "*=", "/="].iter().any(|op| after.starts_with(op))
                && !after.starts_with("==")
                && !matches!(prev, Some('.') | Some('>') | Some('['));
            let name = &text[start..k];
            if is_assign && !out.iter().any(|o: &String| o == name) {
                out.push(name.to_string());
            }
        } else {
            k += 1;
        }
    }
    out
}

/// Names declared with `int` or `double` inside `text`.
fn declared_names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for decl in text.split(['{', ';']).map(str::trim) {
        for ty in ["int ", "double ", "long "] {
            if let Some(rest) = decl.strip_prefix(ty) {
                for part in rest.split(',') {
                    let name: String =
                        part.trim().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                    if !name.is_empty() {
                        out.push(name);
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_unprivatised_scalars() {
        let ok = "#pragma omp parallel for private(j)\nfor (i = 0; i < N; i++) {\n  for (j = 0; j < N; j++) {\n    A[i][j] = 0;\n  }\n}\n";
        assert_eq!(unprivatised(ok, &[]), None);
        let racy = "#pragma omp parallel for\nfor (i = 0; i < N; i++) {\n  for (j = 0; j < N; j++) {\n    t = A[i][j];\n  }\n}\n";
        assert_eq!(unprivatised(racy, &["t"]), Some("j".into()));
        let declared = "#pragma omp parallel for private(j)\nfor (i = 0; i < N; i++) {\n  { int tss_lb = 0, tss_ub = N;\n  for (j = tss_lb; j < tss_ub; j++) {\n    s += A[i][j];\n  } }\n}\n";
        assert_eq!(unprivatised(declared, &[]), Some("s".into()));
        assert_eq!(unprivatised(declared, &["s"]), None);
    }

    #[test]
    fn summary_counts_and_keeps_the_slowest() {
        let mut s = Summary::default();
        for (k, o) in [Outcome::Equal, Outcome::Rejected, Outcome::Wrong].into_iter().enumerate() {
            s.add(Case { name: format!("c{k}"), outcome: o, detail: String::new(), tile_secs: k as f64, kept: None });
        }
        assert_eq!((s.total(), s.failed()), (3, 1));
        assert_eq!(s.slowest[0].1, "c2");
    }
}
