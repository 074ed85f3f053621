//! tss: loop tile-size selection and parametric tiling of C loop nests.
//!
//! The pipeline, one module per stage, data flowing one way:
//!
//! ```text
//! C text --frontend--> Scop --poly--> dependences, tiled schedule --codegen--> tiled C (TSS_Tk macros)
//!                                              |
//!            sizes, tile --features--> feature vectors --model--> predicted times --select--> tile
//! ```
//!
//! Beside it: [`harness`] (compile, load and time variants in a worker
//! process), [`dataset`] and [`collect`] (exhaustive, resumable sweeps),
//! [`eval`] and [`plots`] (the paper's metrics and figures), and [`choose`]
//! (the whole method behind `tss predict`, for build scripts too).
//!
//! [`tile_source`] tiles a file's text and [`analyze`] prepares its hot SCoP
//! for the later stages; the `tss` binary is a thin command-line layer.

pub mod adapt;
pub mod choose;
pub mod codegen;
pub mod collect;
pub mod compiled;
pub mod config;
pub mod dataset;
pub mod error;
pub mod eval;
pub mod features;
pub mod frontend;
pub mod fuzz;
pub mod gate;
pub mod harness;
pub mod instance;
pub mod machine;
pub mod model;
pub mod plots;
pub mod poly;
pub mod refeature;
pub mod refine;
pub mod select;
pub mod space;
pub mod stats;

use std::fmt::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use isl_rs::{Context, Options};

pub use codegen::TileOptions;
pub use config::{Config, Form};
pub use error::Error;
use frontend::Scop;
use poly::PolyError;
use poly::deps::Dependences;
use poly::model::Model;
use poly::tile::{Band, TiledSchedule};

/// The analysis of one SCoP, for `--explain` and for later stages.
pub struct ScopReport {
    pub line: usize,
    /// How the SCoP was transformed.
    pub plan: Plan,
    /// Why each more optimised plan was abandoned.
    pub fallbacks: Vec<String>,
    pub statements: Vec<String>,
    pub dependences: [(String, String); 3],
    pub schedule: String,
    pub bands: Vec<Band>,
    pub tile_dims: usize,
    /// The tiled code that replaces this SCoP's region.
    pub code: String,
}

/// Tiles every SCoP of `src` (the text of `file`) and returns the new file
/// text, with everything outside the SCoPs copied through untouched.
pub fn tile_source(file: &Path, src: &str, opts: &TileOptions) -> Result<(String, Vec<ScopReport>), Error> {
    tile_parsed(file, src, &parse(file, src)?, opts)
}

fn parse(file: &Path, src: &str) -> Result<Vec<Scop>, Error> {
    frontend::parse_file(src).map_err(|e| Error::Source { file: file.into(), line: e.line, col: e.col, msg: e.msg })
}

/// [`tile_source`] for SCoPs already parsed from `src`.
fn tile_parsed(file: &Path, src: &str, scops: &[Scop], opts: &TileOptions) -> Result<(String, Vec<ScopReport>), Error> {
    let mut out = String::with_capacity(src.len() * 2);
    let mut reports = Vec::new();
    let mut last = 0;
    for scop in scops {
        let (code, report) =
            tile_scop(scop, opts).map_err(|e| Error::Poly { file: file.into(), line: scop.region.line, msg: e.0 })?;
        out.push_str(&src[last..scop.region.start]);
        out.push_str(&code);
        last = scop.region.end;
        reports.push(report);
    }
    out.push_str(&src[last..]);
    Ok((out, reports))
}

/// Everything later stages need about a file's hot SCoP: the tiled file
/// (tile sizes still macros), the SCoP, its report and its feature kernel.
pub struct Analysis {
    pub file: std::path::PathBuf,
    /// The whole file with every SCoP tiled; `TSS_Tk` are `#ifndef` macros.
    pub tiled: String,
    pub scop: Scop,
    pub report: ScopReport,
    pub kernel: features::Kernel,
    /// [`Analysis::vectors_under`] per loop order, found once: it takes code
    /// generation, which on some SCoPs takes ISL seconds.
    vector_orders: std::sync::OnceLock<[bool; 2]>,
}

impl Analysis {
    /// Number of tile-size macros of the hot SCoP (at least 1).
    pub fn tile_dims(&self) -> usize {
        self.report.tile_dims.max(1)
    }

    /// Whether a tiled band can sink a parallel member below its inner
    /// loops, so that configs of both [`Config::sink`] values differ.
    pub fn can_sink(&self) -> bool {
        self.report.bands.iter().any(|b| b.tiled && b.orders.sunk.is_some())
    }

    /// Whether [`Config::pack`] changes the code under `config`'s loop
    /// order: some tiled band reads a read-only array along its vector loop
    /// and reuses the copy.
    pub fn can_pack(&self, config: &Config) -> bool {
        self.report.bands.iter().any(|b| b.tiled && codegen::packs(&self.scop, b, config))
    }

    /// Whether a vector register tile ([`Config::vector`]) changes the code
    /// of the hot SCoP under `config`'s loop order (packed where packing
    /// applies, as the search tries it). Only code generation finds the
    /// reduction around the vector loop that it needs, so this generates.
    pub fn can_vector(&self, config: &Config) -> bool {
        let config = config.with_pack(self.can_pack(config)).with_vector(1);
        let opts = TileOptions { config, ..TileOptions::default() };
        tile_scop(&self.scop, &opts).is_ok_and(|(code, _)| codegen::has_vector_tile(&code))
    }

    /// Whether a vector register tile changes the code under the loop order
    /// of [`Config::sink`]` = sink` ([`Analysis::can_vector`] at any tile
    /// size: the form it needs does not depend on them), computed once.
    pub fn vectors_under(&self, sink: bool) -> bool {
        let orders =
            self.vector_orders.get_or_init(|| [false, true].map(|s| self.can_vector(&Config::cubic(32).with_sink(s))));
        orders[usize::from(sink)]
    }

    /// Statement instances one run executes at `sizes`, over-approximated by
    /// each statement's bounding box (a triangle counts as its square): what
    /// collection caps so that a drawn instance runs in seconds.
    pub fn work(&self, sizes: &instance::Sizes) -> Result<f64, Error> {
        Ok(self.statement_work(sizes)?.iter().sum())
    }

    /// [`Analysis::work`] per statement, in source order.
    pub fn statement_work(&self, sizes: &instance::Sizes) -> Result<Vec<f64>, Error> {
        let poly = |msg: String| Error::Poly { file: self.file.clone(), line: self.scop.region.line, msg };
        let ctx = isl_rs::Context::alloc();
        let fixed = isl_rs::Set::read_from_str(&ctx, &sizes.isl_params()).map_err(|e| poly(e.to_string()))?;
        let box_volume = |s: &frontend::Statement| -> Result<f64, isl_rs::LibISLError> {
            let set = isl_rs::Set::read_from_str(&ctx, &self.scop.domain_isl(s))?.intersect_params(fixed.copy()?)?;
            Ok(poly::box_extents(&set, s.iterators.len())?.map_or(0.0, |ext| {
                ext.iter().map(|e| e.map_or(f64::INFINITY, |(lo, hi)| (hi - lo + 1) as f64)).product()
            }))
        };
        let each = self.scop.statements.iter();
        each.map(|s| box_volume(s).map_err(|e| poly(format!("iteration count of {}: {e}", s.name)))).collect()
    }

    /// The instance at `sizes` as the features see it, on a machine with
    /// `vector_bits`-wide vectors, run on `threads` threads (1 serial).
    pub fn shape(&self, sizes: &instance::Sizes, vector_bits: u32, threads: usize) -> Result<features::Shape, Error> {
        let statement_work = self.statement_work(sizes)?;
        Ok(features::Shape {
            ps: self.extents(sizes)?,
            members: space::member_extents(self, sizes)?,
            work: statement_work.iter().sum(),
            statement_work,
            vector_bits,
            threads,
            arrays: self.array_extents(sizes)?,
        })
    }

    /// Every array's extent per dimension at `sizes`, named, as the harness
    /// allocates them.
    pub fn array_extents(&self, sizes: &instance::Sizes) -> Result<Vec<(String, Vec<i64>)>, Error> {
        let layout = harness::driver::Layout::of(self);
        let extents = layout.extents(self, sizes).map_err(|e| Error::Poly {
            file: self.file.clone(),
            line: self.scop.region.line,
            msg: e.0,
        })?;
        Ok(layout.arrays.into_iter().map(|(name, _)| name).zip(extents).collect())
    }

    /// PS1..PS3 at `sizes`, with failures reported against the SCoP's line.
    pub fn extents(&self, sizes: &instance::Sizes) -> Result<[i64; 3], Error> {
        self.kernel.extents(sizes).map_err(|e| Error::Poly {
            file: self.file.clone(),
            line: self.scop.region.line,
            msg: e.0,
        })
    }
}

/// Tiles `src` and analyses its hot SCoP: the first one with a tiled band
/// (the first SCoP when none has one).
pub fn analyze(file: &Path, src: &str, parallel: bool) -> Result<Analysis, Error> {
    let opts = TileOptions { parallel, ..TileOptions::default() };
    let mut scops = parse(file, src)?;
    // The harness's driver puts the SCoP in a function of its own, which
    // declares none of the file's variables: the tiled code declares all.
    for s in &mut scops {
        s.declared_outside.clear();
    }
    let (tiled, reports) = tile_parsed(file, src, &scops, &opts)?;
    let hot = reports.iter().position(|r| r.bands.iter().any(|b| b.tiled)).unwrap_or(0);
    let scop = scops.swap_remove(hot);
    let report = reports.into_iter().nth(hot).expect("one report per SCoP");
    let kernel = features::Kernel::analyze(&scop, &report.bands).map_err(|e| Error::Poly {
        file: file.into(),
        line: scop.region.line,
        msg: e.0,
    })?;
    Ok(Analysis { file: file.into(), tiled, scop, report, kernel, vector_orders: Default::default() })
}

/// How a SCoP was transformed, from most to least optimised. `tss tile`
/// tries them in this order and keeps the first that succeeds within its
/// budget of ISL operations ([`ISL_MAX_OPERATIONS`]), so it always answers,
/// and answers the same on any machine load.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Plan {
    /// ISL's Pluto-style scheduler with fusion across statements.
    Fused,
    /// The same scheduler with every strongly connected component scheduled
    /// on its own (no fusion): smaller problems, and it succeeds on some
    /// SCoPs where fusion makes ISL fail ("unable to carry dependences").
    Unfused,
    /// No tiling: the original loop order, its outer loops parallel where
    /// the dependences allow.
    Original,
    /// The SCoP's code copied unchanged (when even the dependences could
    /// not be computed within the budget).
    AsWritten,
}

impl std::fmt::Display for Plan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Plan::Fused => "ISL scheduler with fusion",
            Plan::Unfused => "ISL scheduler without fusion (fallback)",
            Plan::Original => "original loop order, untiled (fallback)",
            Plan::AsWritten => "code left as written (fallback)",
        })
    }
}

/// ISL operations (simplex pivots) one attempt may spend: a deterministic
/// cap, the same on any machine load. Every kernel of `polybench/` and of
/// the unseen-kernel test needs far less.
pub const ISL_MAX_OPERATIONS: u64 = 3_000_000;

/// [`ISL_MAX_OPERATIONS`], or `$TSS_ISL_MAX_OPERATIONS` when set.
pub fn isl_max_operations() -> u64 {
    std::env::var("TSS_ISL_MAX_OPERATIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(ISL_MAX_OPERATIONS)
}

/// Wall-clock budget of each [`Plan`] that runs ISL (model, dependences,
/// scheduling and AST generation together): pivots can be slow on SCoPs
/// with integer divisions, so time is bounded too ([`poly::ffi::Watchdog`]).
/// It is a safety net, set well above what any SCoP within the operation
/// cap was seen to take, because a plan that depends on the clock depends
/// on the machine and its load: at 900 ms, heat-3d's fused schedule (about
/// 1 s on the Zen 3) was tiled on the faster Intel Xeon and not on the
/// Zen 3, so the same kernel gave two codes and two feature vectors. Scale
/// them with `$TSS_TIME_SCALE` (e.g. `4` on a slow or loaded machine).
fn plan_budget(plan: Plan) -> Duration {
    let ms = match plan {
        Plan::Fused => 4000,
        Plan::Unfused => 2000,
        Plan::Original | Plan::AsWritten => 1000,
    };
    let scale = std::env::var("TSS_TIME_SCALE").ok().and_then(|v| v.parse::<f64>().ok()).unwrap_or(1.0);
    Duration::from_millis(ms).mul_f64(scale.clamp(0.01, 1000.0))
}

/// Runs model, dependences, scheduling, tiling and code generation on one
/// SCoP, falling back along [`Plan`] when ISL fails or exceeds its budget.
pub fn tile_scop(scop: &Scop, opts: &TileOptions) -> Result<(String, ScopReport), PolyError> {
    let mut failures = Vec::new();
    for plan in [Plan::Fused, Plan::Unfused] {
        match tile_with(scop, opts, plan, Instant::now() + plan_budget(plan)) {
            Ok(mut r) => {
                r.1.fallbacks = failures;
                return Ok(r);
            }
            Err(e) => failures.push(format!("{plan}: {}", budget_message(plan, &e))),
        }
    }
    let deadline = Instant::now() + plan_budget(Plan::Original);
    let (code, plan) = match untiled_with(scop, opts, deadline) {
        Ok(code) => (code, Plan::Original),
        Err(e) => {
            failures.push(format!("{}: {}", Plan::Original, budget_message(Plan::Original, &e)));
            (as_written(scop), Plan::AsWritten)
        }
    };
    let report = ScopReport {
        line: scop.region.line,
        plan,
        fallbacks: failures,
        statements: statement_lines(scop),
        dependences: Default::default(),
        schedule: String::new(),
        bands: Vec::new(),
        tile_dims: 0,
        code: code.clone(),
    };
    Ok((code, report))
}

/// ISL's quota error, said as the budget it stands for.
fn budget_message(plan: Plan, e: &PolyError) -> String {
    if e.0.contains("maximal number of operations exceeded") {
        format!("gave up after its budget ({:?} or {} ISL operations)", plan_budget(plan), isl_max_operations())
    } else {
        e.0.clone()
    }
}

/// A fresh ISL context with tss's error handling and operation cap.
fn isl_context() -> Result<Context, PolyError> {
    let ctx = Context::alloc();
    Options::set_on_error(&ctx, 1)?; // ISL_ON_ERROR_CONTINUE: errors come back as values
    ctx.set_max_operations(isl_max_operations());
    Ok(ctx)
}

/// The SCoP's own code, as the last resort.
fn as_written(scop: &Scop) -> String {
    format!(
        "{}/* tss: left as written */
{}",
        scop.region.indent, scop.region.code
    )
}

/// One attempt at tiling `scop` with `plan` in a fresh, budgeted ISL context.
fn tile_with(
    scop: &Scop,
    opts: &TileOptions,
    plan: Plan,
    deadline: Instant,
) -> Result<(String, ScopReport), PolyError> {
    // The context must outlive every ISL object below: declared first, dropped last.
    let ctx = isl_context()?;
    let watch = poly::ffi::Watchdog::arm(&ctx, deadline);
    let model = Model::build(&ctx, scop)?;
    let deps = Dependences::compute(&model)?;
    let schedule = poly::schedule::compute(&ctx, scop, &model, &deps, plan == Plan::Unfused)?;
    let mut tiled: TiledSchedule = poly::tile::tile(&ctx, scop, &schedule, &opts.config)?;
    if opts.config.vector > 0 {
        tiled.fresh_reads = poly::deps::fresh_reads(&ctx, &model, scop)?;
    }
    let code = codegen::generate(scop, &tiled, opts, deadline)?;
    // The code is found: the report's texts must not fail on the budget.
    drop(watch);
    ctx.set_max_operations(0);
    let text = |m: &isl_rs::UnionMap| poly::ffi::union_map_text(m).map_err(PolyError);
    let report = ScopReport {
        line: scop.region.line,
        plan,
        fallbacks: Vec::new(),
        statements: statement_lines(scop),
        dependences: [
            ("RAW".into(), text(&deps.raw)?),
            ("WAR".into(), text(&deps.war)?),
            ("WAW".into(), text(&deps.waw)?),
        ],
        schedule: text(&schedule.get_map()?)?,
        bands: tiled.bands.clone(),
        tile_dims: tiled.tile_dims,
        code: code.clone(),
    };
    Ok((code, report))
}

/// `--explain` lines of the statements: text, domain and accesses.
fn statement_lines(scop: &Scop) -> Vec<String> {
    scop.statements
        .iter()
        .map(|s| {
            let acc: Vec<String> = s
                .accesses
                .iter()
                .map(|a| {
                    let subs: Vec<String> = a.subscripts.iter().map(|e| format!("[{}]", e.isl())).collect();
                    format!("{}{}{}", if a.write { "W " } else { "R " }, a.array, subs.concat())
                })
                .collect();
            format!(
                "{} (line {}): {}\n      domain {}\n      accesses {}",
                s.name,
                s.line,
                s.text,
                scop.domain_isl(s),
                acc.join(", ")
            )
        })
        .collect()
}

/// The untiled baseline of a SCoP as C code in the original loop order; with
/// `parallel`, each nest's outer loop carries `omp parallel for` when legal.
pub fn untiled_scop(scop: &Scop, parallel: bool) -> Result<String, PolyError> {
    // Not a fallback here: the harness needs this code, so ISL gets a minute.
    let opts = TileOptions { parallel, ..TileOptions::default() };
    untiled_with(scop, &opts, Instant::now() + Duration::from_secs(60))
}

fn untiled_with(scop: &Scop, opts: &TileOptions, deadline: Instant) -> Result<String, PolyError> {
    let ctx = isl_context()?;
    let _watch = poly::ffi::Watchdog::arm(&ctx, deadline);
    let model = Model::build(&ctx, scop)?;
    let deps = Dependences::compute(&model)?;
    let sched = poly::baseline::untiled(&ctx, scop, &model, &deps)?;
    codegen::generate(scop, &sched, opts, deadline)
}

/// Human-readable `--explain` text for the reports of one file.
pub fn explain(reports: &[ScopReport], opts: &TileOptions) -> String {
    let mut s = String::new();
    for r in reports {
        let _ = writeln!(s, "SCoP at line {}", r.line);
        let _ = writeln!(s, "  plan: {}", r.plan);
        for f in &r.fallbacks {
            let _ = writeln!(s, "    abandoned: {f}");
        }
        let _ = writeln!(s, "  statements:");
        for st in &r.statements {
            let _ = writeln!(s, "    {st}");
        }
        let _ = writeln!(s, "  dependences:");
        for (kind, d) in &r.dependences {
            let _ = writeln!(s, "    {kind}: {d}");
        }
        let _ = writeln!(s, "  schedule (ISL scheduler): {}", r.schedule);
        let _ = writeln!(s, "  bands (outermost first):");
        for (k, b) in r.bands.iter().enumerate() {
            let coinc: Vec<&str> = b.coincident.iter().map(|&c| if c { "parallel" } else { "sequential" }).collect();
            let _ = writeln!(s, "    band {k}: statements {}, permutable: {}", b.statements.join(" "), b.permutable);
            for (m, member) in b.members.iter().enumerate() {
                let _ = writeln!(s, "      {} = {member}  ({})", b.names[m], coinc[m]);
            }
            if b.tiled {
                let sizes: Vec<String> =
                    (0..b.members.len()).map(|m| format!("{}={}", poly::tile::tile_param(m), opts.size(m))).collect();
                let order: Vec<&str> = b.point_order().iter().map(|&m| b.names[m].as_str()).collect();
                let sunk = if b.sunk { " (the last innermost, below the band's inner loops)" } else { "" };
                let _ = writeln!(s, "      tiled: {}; intra-tile order {}{sunk}", sizes.join(" "), order.join(","));
            } else {
                let _ = writeln!(
                    s,
                    "      not tiled ({})",
                    if !b.permutable {
                        "not permutable"
                    } else if b.members.len() < 2 {
                        "single member"
                    } else {
                        "inside a tiled band"
                    }
                );
            }
            if let Some(m) = b.parallel_member {
                let _ = writeln!(
                    s,
                    "      OpenMP (--parallel) on the {} of {}",
                    if b.tiled { "tile loop" } else { "loop" },
                    b.names[m]
                );
            }
            if b.wavefront {
                let _ = writeln!(
                    s,
                    "      no parallel member: OpenMP (--parallel) on wavefronts of the tiles of {},{}",
                    b.names[0], b.names[1]
                );
            }
        }
    }
    s
}
