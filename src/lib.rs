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

pub mod choose;
pub mod codegen;
pub mod collect;
pub mod dataset;
pub mod error;
pub mod eval;
pub mod features;
pub mod frontend;
pub mod harness;
pub mod instance;
pub mod machine;
pub mod model;
pub mod plots;
pub mod poly;
pub mod select;

use std::fmt::Write;
use std::path::Path;

use isl_rs::{Context, Options};

pub use codegen::TileOptions;
pub use error::Error;
use frontend::Scop;
use poly::PolyError;
use poly::deps::Dependences;
use poly::model::Model;
use poly::tile::{Band, TiledSchedule};

/// The analysis of one SCoP, for `--explain` and for later stages.
pub struct ScopReport {
    pub line: usize,
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
    let scops = frontend::parse_file(src).map_err(|e| Error::Source {
        file: file.into(),
        line: e.line,
        col: e.col,
        msg: e.msg,
    })?;
    let mut out = String::with_capacity(src.len() * 2);
    let mut reports = Vec::new();
    let mut last = 0;
    for scop in &scops {
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
}

impl Analysis {
    /// Number of tile-size macros of the hot SCoP (at least 1).
    pub fn tile_dims(&self) -> usize {
        self.report.tile_dims.max(1)
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
    let (tiled, reports) = tile_source(file, src, &opts)?;
    let mut scops = frontend::parse_file(src).map_err(|e| Error::Source {
        file: file.into(),
        line: e.line,
        col: e.col,
        msg: e.msg,
    })?;
    let hot = reports.iter().position(|r| r.bands.iter().any(|b| b.tiled)).unwrap_or(0);
    let scop = scops.swap_remove(hot);
    let report = reports.into_iter().nth(hot).expect("one report per SCoP");
    let kernel = features::Kernel::analyze(&scop, &report.bands).map_err(|e| Error::Poly {
        file: file.into(),
        line: scop.region.line,
        msg: e.0,
    })?;
    Ok(Analysis { file: file.into(), tiled, scop, report, kernel })
}

/// Runs model, dependences, scheduling, tiling and code generation on one SCoP.
pub fn tile_scop(scop: &Scop, opts: &TileOptions) -> Result<(String, ScopReport), PolyError> {
    // The context must outlive every ISL object below: declared first, dropped last.
    let ctx = Context::alloc();
    Options::set_on_error(&ctx, 1)?; // ISL_ON_ERROR_CONTINUE: errors come back as values
    let model = Model::build(&ctx, scop)?;
    let deps = Dependences::compute(&model)?;
    let schedule = poly::schedule::compute(&ctx, &model, &deps)?;
    let tiled: TiledSchedule = poly::tile::tile(&ctx, scop, &schedule)?;
    let code = codegen::generate(scop, &tiled, opts)?;
    let report = ScopReport {
        line: scop.region.line,
        statements: scop
            .statements
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
            .collect(),
        dependences: [
            ("RAW".into(), deps.raw.to_str()?.to_string()),
            ("WAR".into(), deps.war.to_str()?.to_string()),
            ("WAW".into(), deps.waw.to_str()?.to_string()),
        ],
        schedule: schedule.get_map()?.to_str()?.to_string(),
        bands: tiled.bands.clone(),
        tile_dims: tiled.tile_dims,
        code: code.clone(),
    };
    Ok((code, report))
}

/// The untiled baseline of a SCoP as C code in the original loop order; with
/// `parallel`, each nest's outer loop carries `omp parallel for` when legal.
pub fn untiled_scop(scop: &Scop, parallel: bool) -> Result<String, PolyError> {
    let ctx = Context::alloc();
    Options::set_on_error(&ctx, 1)?;
    let model = Model::build(&ctx, scop)?;
    let deps = Dependences::compute(&model)?;
    let sched = poly::baseline::untiled(&ctx, scop, &model, &deps)?;
    codegen::generate(scop, &sched, &TileOptions { parallel, ..TileOptions::default() })
}

/// Human-readable `--explain` text for the reports of one file.
pub fn explain(reports: &[ScopReport], opts: &TileOptions) -> String {
    let mut s = String::new();
    for r in reports {
        let _ = writeln!(s, "SCoP at line {}", r.line);
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
                let order: Vec<&str> = b.point_order.iter().map(|&m| b.names[m].as_str()).collect();
                let _ = writeln!(s, "      tiled: {}; intra-tile order {}", sizes.join(" "), order.join(","));
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
