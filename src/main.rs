//! `tss` command line: a thin layer over the library.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
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
}

fn main() -> ExitCode {
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
    }
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
