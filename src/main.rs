//! `tss` command line: a thin layer over the library.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use tss::features::{FeatureSet, candidates};
use tss::instance::Sizes;
use tss::machine::{Caches, parse_bytes};
use tss::{Error, TileOptions};

#[derive(Parser)]
#[command(
    name = "tss",
    version,
    about = "Tile-size selection and parametric tiling for C loop nests in #pragma scop regions"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Tile the SCoP of a C file (Pluto-like: permutable bands, rectangular
    /// tiles, stride-1 intra-tile order). Tile sizes stay macros TSS_T1,
    /// TSS_T2, ... so `cc -DTSS_T1=64` fixes them at compile time.
    Tile {
        /// C file with the loop nest between `#pragma scop` and `#pragma endscop`.
        file: PathBuf,
        /// Default tile sizes: one value for all band dimensions (`32`) or one
        /// per dimension, outermost first (`16,64,8`).
        #[arg(long, default_value = "32", value_name = "SIZES")]
        tile: String,
        /// Mark the outermost parallel tile loop `#pragma omp parallel for`.
        #[arg(long)]
        parallel: bool,
        /// Output file (default: FILE with `.tiled.c`; `-` for stdout).
        #[arg(short, long, value_name = "OUT")]
        output: Option<PathBuf>,
        /// Print statements, dependences, schedule and bands instead of writing code.
        #[arg(long)]
        explain: bool,
    },
    /// Print the paper's features of the SCoP for candidate tiles: problem
    /// sizes, tile size, loop structure (Table 3), locality along the three
    /// innermost intra-tile loops (Table 4) and operand count.
    Features {
        /// C file with the loop nest between `#pragma scop` and `#pragma endscop`.
        file: PathBuf,
        /// Problem sizes, e.g. `NI=1500,NJ=1300,NK=1100`; names are the SCoP's
        /// parameters (`N`, `ni`, `_PB_NI`; the `_PB_` prefix and case may differ).
        #[arg(long, value_name = "NAME=VALUE,...")]
        size: String,
        /// Tile sizes (`64`, or `64,32,128` per band member); repeat for several
        /// rows. Default: every candidate of the paper's rule (eq. 1-2).
        #[arg(long, value_name = "SIZES")]
        tile: Vec<String>,
        /// Feature set: `paper` (the 29 of Table 5) or `extended`.
        #[arg(long, default_value = "paper")]
        set: FeatureSet,
        /// One JSON array of {name: value} objects, one per tile.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        caches: CacheArgs,
    },
}

/// Cache geometry overrides (default: this machine's, from sysfs).
#[derive(Args, Clone, Debug)]
struct CacheArgs {
    /// L2 size per core (`1M`, `256K`); bounds candidate tiles (eq. 1).
    #[arg(long, value_name = "BYTES", value_parser = bytes)]
    l2: Option<u64>,
    /// L1 data cache size (`32K`), for the extended working-set features.
    #[arg(long, value_name = "BYTES", value_parser = bytes)]
    l1: Option<u64>,
    /// Cache line size in bytes (`64`); candidate tiles are multiples of it in elements.
    #[arg(long, value_name = "BYTES", value_parser = bytes)]
    line: Option<u64>,
}

impl CacheArgs {
    fn resolve(&self) -> Caches {
        let d = Caches::detect();
        Caches { l1d: self.l1.unwrap_or(d.l1d), l2: self.l2.unwrap_or(d.l2), line: self.line.unwrap_or(d.line) }
    }
}

fn bytes(s: &str) -> Result<u64, String> {
    parse_bytes(s).ok_or_else(|| format!("'{s}' is not a size in bytes (e.g. 64, 32K, 1M)"))
}

fn main() -> ExitCode {
    // Die quietly on a closed pipe (`tss features ... | head`) like other Unix tools.
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tss: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), Error> {
    match cli.command {
        Command::Tile { file, tile, parallel, output, explain } => {
            let opts = TileOptions { sizes: parse_sizes(&tile)?, parallel };
            let src = std::fs::read_to_string(&file).map_err(|source| Error::Io { path: file.clone(), source })?;
            let (code, reports) = tss::tile_source(&file, &src, &opts)?;
            if explain {
                print!("{}", tss::explain(&reports, &opts));
                return Ok(());
            }
            let out = output.unwrap_or_else(|| default_output(&file));
            if out == Path::new("-") {
                print!("{code}");
            } else {
                std::fs::write(&out, code).map_err(|source| Error::Io { path: out.clone(), source })?;
                eprintln!("tss: wrote {}", out.display());
            }
            Ok(())
        }
        Command::Features { file, size, tile, set, json, caches } => {
            features(&file, &size, &tile, set, json, &caches.resolve())
        }
    }
}

fn read(file: &Path) -> Result<String, Error> {
    std::fs::read_to_string(file).map_err(|source| Error::Io { path: file.into(), source })
}

fn features(
    file: &Path,
    size: &str,
    tiles: &[String],
    set: FeatureSet,
    json: bool,
    caches: &Caches,
) -> Result<(), Error> {
    let a = tss::analyze(file, &read(file)?, false)?;
    let sizes = Sizes::parse_pairs(size).and_then(|p| Sizes::resolve(&a.scop.params, &p)).map_err(Error::Usage)?;
    let ps =
        a.kernel.extents(&sizes).map_err(|e| Error::Poly { file: file.into(), line: a.scop.region.line, msg: e.0 })?;
    let tiles: Vec<Vec<usize>> = if tiles.is_empty() {
        candidates(&ps, caches).into_iter().map(|t| vec![t]).collect()
    } else {
        tiles.iter().map(|t| parse_sizes(t)).collect::<Result<_, _>>()?
    };
    let names = set.names();
    let rows: Vec<Vec<f64>> = tiles.iter().map(|t| a.kernel.vector(set, &ps, t, caches)).collect();
    if json {
        let objs: Vec<serde_json::Map<String, serde_json::Value>> = rows
            .iter()
            .map(|r| names.iter().zip(r).map(|(n, v)| (n.to_string(), serde_json::json!(v))).collect())
            .collect();
        println!("{}", serde_json::to_string_pretty(&objs).expect("numbers serialise"));
    } else {
        let k = &a.kernel;
        let loops: Vec<&str> = k.loops.iter().map(|l| l.name.as_str()).collect();
        let intra: Vec<&str> = k.intra.iter().map(|l| l.name.as_str()).collect();
        println!(
            "# {}: statement {} (line {}); tile loops {}; intra-tile L1..L3 {}; {sizes}",
            file.display(),
            k.statement,
            k.statement_line,
            loops.join(","),
            intra.join(",")
        );
        println!("{}", names.join("\t"));
        for r in rows {
            let cells: Vec<String> = r.iter().map(|v| fmt_num(*v)).collect();
            println!("{}", cells.join("\t"));
        }
    }
    Ok(())
}

/// Integers print as integers, ratios with four significant decimals.
fn fmt_num(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 { format!("{}", v as i64) } else { format!("{v:.4}") }
}

/// `32` or `16,64,8`: positive integers.
fn parse_sizes(s: &str) -> Result<Vec<usize>, Error> {
    s.split(',')
        .map(|v| match v.trim().parse::<usize>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(Error::Usage(format!("--tile: '{v}' is not a tile size (positive integer)"))),
        })
        .collect()
}

/// `dir/gemm.c` -> `dir/gemm.tiled.c`, like polycc's `.pluto.c`.
fn default_output(file: &Path) -> PathBuf {
    let stem = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    file.with_file_name(format!("{stem}.tiled.c"))
}
