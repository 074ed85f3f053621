//! `tss` command line: a thin layer over the library.

mod report;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use tss::choose::{ChooseOptions, choose_tiles};
use tss::features::FeatureSet;
use tss::gate::GateKind;
use tss::harness::compile::Compiler;
use tss::harness::session::{Policy, Session, SizeBinding};
use tss::harness::{Mode, Variant};
use tss::instance::{Ranges, Sizes};
use tss::machine::{Caches, parse_bytes};
use tss::model::source::ModelSource;
use tss::model::{Loss, StopOn, Target, TrainConfig, ValBy};
use tss::select::Strategy;
use tss::{Config, Error, TileOptions, dataset, eval};

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
        /// Unroll-and-jam factors of the point loops (the register tile), one
        /// for all band dimensions or one per dimension in `--tile`'s order
        /// (`4,1,4`); the last repeats. The innermost (vector) loop is never
        /// unrolled; a loop whose inner bounds depend on it is left as is.
        /// Factors are compile-time constants (1..=16).
        #[arg(long, default_value = "1", value_name = "FACTORS")]
        unroll: String,
        /// Keep every band's point loops together. By default a band that
        /// leaves loops inside its tile (a reduction below it) runs its best
        /// parallel, stride-1 member innermost, below those loops, so that
        /// the innermost loop vectorises; that costs when the loops below
        /// are a few short ones (a 3x3 filter). `--explain` says which bands
        /// it affects.
        #[arg(long)]
        no_sink: bool,
        /// Copy, once per tile, what the tile reads of a read-only array
        /// along the vector loop into a contiguous buffer laid out stride-1
        /// for that loop: syrk's `A[j][k]` under a `j` loop is transposed,
        /// gemm's `B[k][j]` becomes one panel. Only arrays whose copy the
        /// tile reuses across another loop; the band's loop order then
        /// counts such reads as stride-1.
        #[arg(long)]
        pack: bool,
        /// Vector register tile G vectors wide (1..=8): where a band's
        /// innermost loop is a vector loop over a reduction (gemm's and
        /// syrk's `k`), the reduction runs inside it and a block of `--unroll`
        /// rows by G vectors of the output stays in vector registers, as in
        /// BLAS micro-kernels (GNU C vector types; gcc and clang). The
        /// reduction loop's own unroll factor is then ignored. Best with
        /// `--pack`, which makes the other operand stride-1.
        #[arg(long, value_name = "G", default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=8))]
        vector: u8,
        /// Mark the outermost parallel tile loop `#pragma omp parallel for`.
        #[arg(long)]
        parallel: bool,
        /// Output file (default: FILE with `.tiled.c`; `-` for stdout).
        #[arg(short, long, value_name = "OUT")]
        output: Option<PathBuf>,
        /// Print statements, dependences, schedule and bands instead of writing code.
        #[arg(long)]
        explain: bool,
        /// Testing aid: run every loop marked `omp parallel for` or `GCC ivdep`
        /// backwards (their iterations must be independent, so the output
        /// must not change). Used by `tss fuzz`.
        #[arg(long, hide = true)]
        reverse_marked: bool,
        /// How loops are spelled: `stepped` tile loops step origins (`i_t +=
        /// TSS_T1`); `index` ones count tile indices (`tss_i_t++`, then `i_t =
        /// TSS_T1 * tss_i_t`), as Pluto's do; `inline` is `index` with origins
        /// written inline and point-loop bounds inclusive, `k <= tss_min(M - 1,
        /// TSS_T3 * tss_k_t + (TSS_T3 - 1))`: Pluto's spelling. The same
        /// iterations in the same order, which gcc compiles differently:
        /// each is fastest on some kernels (README, "Against peers").
        #[arg(long, default_value = "stepped", value_name = "FORM")]
        form: tss::Form,
        /// The same as `--form index`.
        #[arg(long, hide = true, conflicts_with = "form")]
        index_loops: bool,
    },
    /// Differential testing of `tss tile`: random affine programs and mutants
    /// of the kernels in `--kernels`, each tiled (serial, --parallel under 2
    /// and 3 threads, marked loops reversed), compiled with $CC and compared
    /// byte for byte with the original. Prints counts per outcome and the
    /// slowest `tss tile` calls; exits 1 if any case is a defect (wrong
    /// output, panic, crash, hang, or an error that is not one line).
    Fuzz {
        /// Random programs to check.
        #[arg(long, default_value_t = 100)]
        programs: u64,
        /// Mutants of the kernels to check.
        #[arg(long, default_value_t = 100)]
        mutants: u64,
        /// First seed (programs and mutants use seeds SEED, SEED+1, ...).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Cases checked at once.
        #[arg(long, default_value_t = 2)]
        jobs: usize,
        /// Directory of `.c` kernels to mutate (with `include/polybench.h`).
        #[arg(long, default_value = "polybench")]
        kernels: PathBuf,
        /// Scratch directory; failing cases are kept there.
        #[arg(long, default_value = "target/fuzz")]
        work: PathBuf,
        /// Seconds a `tss tile` call may take before it counts as a hang.
        #[arg(long, default_value_t = 20.0)]
        tile_timeout: f64,
        /// No progress bar.
        #[arg(long, short)]
        quiet: bool,
        /// Print random program SEED (the C file such a case checks) and exit.
        #[arg(long, value_name = "SEED")]
        show: Option<u64>,
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
        /// Configs (`64`, `64,32,128` per band member, or `64x32x128:4x1x4` with
        /// unroll factors); repeat for several rows. Default: every candidate
        /// of the paper's rule (eq. 1-2).
        #[arg(long, value_name = "CONFIG")]
        tile: Vec<String>,
        /// Feature set: `paper` (the 29 of Table 5), `extended`, `registers`, `scop`, `traffic`, `sink`,
        /// `conflict`, `pack`, `vector`, `parallel`, `source`, `bands` or `copy`.
        #[arg(long, default_value = "paper")]
        set: FeatureSet,
        /// One JSON array of {name: value} objects, one per tile.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        caches: CacheArgs,
    },
    /// Compile and time one tiled variant on this machine ($CC, $CFLAGS,
    /// default `cc -O3 -march=native`), checked against the untiled code.
    Measure {
        file: PathBuf,
        /// Problem sizes, e.g. `NI=1500,NJ=1300,NK=1100`.
        #[arg(long, value_name = "NAME=VALUE,...")]
        size: String,
        /// Config to time: tile sizes (`64` or `64,32,128`), optionally with
        /// unroll-and-jam factors (`64x256x128:4x1x4`), then `/nosink`,
        /// `/pack` and `/vG` as `tss tile --no-sink`, `--pack` and `--vector G`
        /// (`256x256x64:8x1x1/pack/v2`); repeat to time several.
        #[arg(long, value_name = "CONFIG", required = true)]
        tile: Vec<String>,
        /// OpenMP on the outer parallel tile loop, one thread per core.
        #[arg(long)]
        parallel: bool,
        /// Also report the untiled baseline's time (repeated like a candidate).
        #[arg(long)]
        baseline: bool,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        timing: TimingArgs,
    },
    /// Time every candidate tile of random instances of each kernel and
    /// append the rows to a CSV dataset. Rerunning the same command resumes.
    Collect {
        /// Kernel files (or directories of `.c` files), comma-separated or repeated.
        #[arg(long, value_delimiter = ',', required = true, value_name = "FILES")]
        kernels: Vec<PathBuf>,
        /// Instances (random problem sizes) per kernel.
        #[arg(long, default_value_t = 10)]
        instances: usize,
        /// Seed of the problem sizes (use different seeds for training and test sets).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Where problem sizes are drawn from, log-uniformly: `LO..HI` for every
        /// parameter (the paper's 1024..2048), `NAME=LO..HI` for one, comma-separated.
        /// A kernel file's `tss-range:` line sets the parameters not named here.
        #[arg(long, default_value = "1024..2048", value_name = "RANGES")]
        range: String,
        /// Fraction of instances with one parameter drawn below 128 (a skinny
        /// shape), where its range allows.
        #[arg(long, default_value_t = 0.25, value_name = "P")]
        skinny: f64,
        /// Redraw instances whose run executes more statement instances than
        /// this (bounding boxes; gemm 2048^3 is 8.6e9).
        #[arg(long, default_value_t = tss::collect::MAX_WORK, value_name = "N")]
        max_work: f64,
        /// Redraw instances whose run executes fewer statement instances than
        /// this (sub-millisecond runs time noise); after 1000 draws the largest
        /// one under --max-work is kept.
        #[arg(long, default_value_t = 0.0, value_name = "N")]
        min_work: f64,
        /// Output CSV (appended to; created with a header).
        #[arg(long)]
        out: PathBuf,
        /// OpenMP on the outer parallel tile loop, one thread per core.
        #[arg(long)]
        parallel: bool,
        /// Repeat the untiled baseline like a candidate (for test sets).
        #[arg(long)]
        baseline: bool,
        /// Random non-cubic tiles per instance, on top of the cubic candidates.
        #[arg(long, default_value_t = 0)]
        non_cubic: usize,
        /// Register-tile configs per instance (unroll-and-jam of the two point
        /// loops outside the vector loop at cubic tiles spread over the
        /// candidates), on top of the others. Training skips these rows until
        /// the features describe unrolling.
        #[arg(long, default_value_t = 0)]
        registers: usize,
        /// Instead of the paper's cubic candidates, time the anchors (Pluto's 32,
        /// cubic 16..256 and the cache rule's tile, each plain and register-tiled)
        /// and N configs sampled from the instance's per-dimension space of tile
        /// shapes and register tiles (README, "Config space").
        #[arg(long, value_name = "N", conflicts_with_all = ["non_cubic", "registers"])]
        space: Option<usize>,
        /// No progress bar.
        #[arg(long, short)]
        quiet: bool,
        #[command(flatten)]
        timing: TimingArgs,
        #[command(flatten)]
        caches: CacheArgs,
    },
    /// Train the MLP on collected data and save it (Burn record + model.json).
    Train {
        /// Dataset CSV files (comma-separated or repeated), all of one mode.
        #[arg(long, value_delimiter = ',', required = true, value_name = "FILES")]
        data: Vec<PathBuf>,
        /// Output directory (e.g. `trained/serial`).
        #[arg(long)]
        out: PathBuf,
        /// Feature set: `extended` (the paper's 29 and tile shape, working set and tile counts;
        /// both shipped models use it), `paper` (the 29 of Table 5), `registers`
        /// (`extended` and the unroll factors; learns from `collect --registers` rows,
        /// and `predict` then ranks register tiles too; also ranks the untiled code) or
        /// `scop` (`registers` and the members outside the three feature loops, every
        /// statement's work, element size and vector length), `traffic` (`scop` and an
        /// analytical estimate of the bytes loaded into L1 and L2) or `sink` (`traffic` and the
        /// loop order around a band with loops inside it, `/nosink` configs; README, "Features")
        /// `conflict` (`sink` and the L1 set conflicts of the inner point loops' walks), `pack`
        /// (`conflict` and the references a `/pack` config copies; `predict` then ranks `/pack`) or
        /// `vector` (`pack` and the vector register tile's width, rows and register use;
        /// `predict` then ranks `/vG` configs) or `parallel` (`vector` and the threads, the
        /// units of work the parallel loop hands out and the idle share of a static schedule;
        /// the first set that may train on serial and parallel rows together) or `source`
        /// (`parallel` and the untiled code's innermost-loop strides and the tiled band's
        /// skewed members: whether tiling pays at all) or `bands` (`source` and the runner-up
        /// band's statement: what a config does to the band beside the dominant one; computed
        /// from the kernels' sources when the rows are read, so it needs --kernels for kernels
        /// outside the repository's corpus/) or `copy` (`bands` and what packing costs and
        /// gains: copied references that were not stride-1, the copy's reuse in the tile and
        /// the buffers' bytes per instance; derived like `bands`).
        #[arg(long, default_value = "extended")]
        set: FeatureSet,
        /// Regression target: `log-time`, `time` (seconds, as in the paper) or `relative`
        /// (log of time over the instance's fastest timed config: ranking only).
        #[arg(long, default_value = "log-time")]
        target: Target,
        /// Loss: `huber` (regress the target, as in the paper) or `pairwise` (learn only
        /// which of two configs of one instance is faster; needs a log target).
        #[arg(long, default_value = "huber")]
        loss: Loss,
        #[arg(long, default_value_t = 400)]
        epochs: usize,
        /// Early stopping: epochs without a better validation score (see --stop-on).
        #[arg(long, default_value_t = 40)]
        patience: usize,
        #[arg(long, default_value_t = 5e-4)]
        lr: f64,
        #[arg(long, default_value_t = 512)]
        batch: usize,
        /// Units in each of the two hidden layers (the paper's network has 32).
        #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..=4096))]
        hidden: u64,
        /// Dropout before the output layer (0 to switch it off).
        #[arg(long, default_value_t = 0.2)]
        dropout: f64,
        /// L2 penalty on the weights (0 = none, as in the paper).
        #[arg(long, default_value_t = 0.0)]
        weight_decay: f64,
        /// With `--target relative`: train every config slower than this ratio to its
        /// instance's best as this ratio, so the network spends itself on ordering the
        /// fast configs, which is what choosing needs (e.g. 2; default: no cap).
        #[arg(long, value_name = "RATIO")]
        cap: Option<f64>,
        /// Train on each instance's untiled-original row this many times per epoch
        /// (one row among dozens of tiles, yet "do not tile" is the call held-out kernels
        /// get most wrong; Huber loss only).
        #[arg(long, default_value_t = 1, value_name = "N")]
        untiled_weight: u32,
        /// Scale the inputs that span orders of magnitude (extents, tile sizes, working
        /// sets) by their logarithm before min-max scaling, so that tiles of 8 and 64 differ
        /// as much to the network as 128 and 1024.
        #[arg(long)]
        log_inputs: bool,
        /// What the validation split (a tenth, used for early stopping) holds out whole:
        /// `instance`s, or `kernel`s, so that the kept epoch is the one that does best on
        /// kernels the network never saw.
        #[arg(long, default_value = "instance")]
        val_by: ValBy,
        /// Seed of the validation split and of the first network (member k uses seed + k).
        #[arg(long, default_value_t = 42)]
        seed: u64,
        /// Networks in the ensemble; predictions average their outputs (1 = the paper's single MLP).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=50))]
        ensemble: u64,
        /// Early stopping keeps the epoch with the best validation `ranking` of tiles
        /// (T6-Random's TN) or the lowest validation `loss` (the paper's).
        #[arg(long, default_value = "ranking")]
        stop_on: StopOn,
        /// Also score tile selection on this test set and store the scores.
        #[arg(long, value_name = "CSV")]
        test: Option<PathBuf>,
        /// Train on the files of several machines or toolchains together (refused
        /// otherwise). Each platform's rows stay their own instances; the model records
        /// no single machine.
        #[arg(long)]
        pool_machines: bool,
        /// Kernel files (or directories of `.c` files) the rows were measured on, found by
        /// file stem: with them, the untiled gate is fitted too (see `tss gate`; rules
        /// unless --gate says otherwise).
        #[arg(long, value_delimiter = ',', value_name = "FILES")]
        kernels: Vec<PathBuf>,
        /// Also fit the untiled gate of this kind after training: `linear` (from the
        /// rows alone), `rules` or `both` (need --kernels). See `tss gate`.
        #[arg(long, value_name = "KIND")]
        gate: Option<GateKind>,
        /// Also fit the blended ranker after training (see `tss blend`).
        #[arg(long)]
        blend: bool,
        /// TN assumed for the network's tiled choice where the gate would keep the original.
        #[arg(long, default_value_t = tss::gate::ASSUMED_TN, value_name = "TN")]
        gate_tn: f64,
    },
    /// Fit (or remove) a trained model's blended ranker: a quadratic ridge estimate of each
    /// candidate's time relative to its instance's fastest, from the stored features, whose
    /// ranking is added to the network's where a kernel's loop structure is not one the
    /// model trained on (README, "A learned untiled gate"). Kernels it trained on keep the
    /// network's ranking. Fitted on training rows in seconds; only model.json changes.
    Blend {
        /// Model directory whose model.json gains the ranker.
        #[arg(long)]
        model: PathBuf,
        /// Training rows (the model's own).
        #[arg(long, value_delimiter = ',', required_unless_present = "remove", value_name = "FILES")]
        data: Vec<PathBuf>,
        /// Remove the model's ranker instead.
        #[arg(long)]
        remove: bool,
    },
    /// Fit (or remove) a trained model's untiled gate: what keeps the loops as written
    /// where tiling does not pay (README, "The untiled gate"). `linear` (the default): a
    /// ridge estimate of the untiled code's time over the fastest tile's from the untiled
    /// row's stored features, firing where it is below 1. `rules`: up to three threshold
    /// rules on the innermost source loops' strides and the data per iteration (needs
    /// --kernels). Fitted on one machine's training rows; only model.json changes.
    Gate {
        /// Model directory whose model.json gains the gate.
        #[arg(long)]
        model: PathBuf,
        /// Training rows (the model's own, or rows of the machine it serves).
        #[arg(long, value_delimiter = ',', required_unless_present = "remove", value_name = "FILES")]
        data: Vec<PathBuf>,
        /// Which gate: linear, rules, or both (firing where either does).
        #[arg(long, default_value = "linear", value_name = "KIND")]
        kind: GateKind,
        /// Kernel files (or directories of `.c` files) the rows were measured on (rules only).
        #[arg(long, value_delimiter = ',', value_name = "FILES")]
        kernels: Vec<PathBuf>,
        /// TN assumed for the network's tiled choice where the rules would keep the original:
        /// a rule fires only where the untiled code beat that on the training rows.
        #[arg(long, default_value_t = tss::gate::ASSUMED_TN, value_name = "TN")]
        gate_tn: f64,
        /// Remove the model's gate instead.
        #[arg(long)]
        remove: bool,
        /// Also write each training instance's traits and untiled TN to this CSV.
        #[arg(long, value_name = "CSV")]
        samples: Option<PathBuf>,
    },
    /// Predict the best tile sizes for a kernel and write it tiled with them.
    Predict {
        file: PathBuf,
        /// Problem sizes, e.g. `NI=1500,NJ=1300,NK=1100`.
        #[arg(long, value_name = "NAME=VALUE,...")]
        size: String,
        /// `t6-search` (compile and time the best 10 %, at most 32, keep the
        /// fastest; the best on the test sets), `t1` (lowest prediction, no
        /// compilation),
        /// `t6-random` (random among the best 10 %).
        #[arg(long, default_value = "t6-search")]
        mode: Strategy,
        /// Parallel code and the parallel model.
        #[arg(long)]
        parallel: bool,
        /// Model directory (default: $TSS_MODEL_DIR/<mode>, else the model
        /// `tss adapt` fitted to this machine, else the model built into tss;
        /// `tss machine` says which applies and where it was trained).
        #[arg(long)]
        model: Option<PathBuf>,
        /// Print the choice as JSON.
        #[arg(long)]
        json: bool,
        /// Print only `-D` flags, a header or JSON for build systems (no tiled file unless -o).
        #[arg(long, value_parser = ["defines", "header", "json"])]
        emit: Option<String>,
        /// Write `--emit`'s text to this file instead of stdout, and only when
        /// it changed (so build systems do not rebuild what includes it).
        #[arg(long, value_name = "FILE", requires = "emit")]
        emit_to: Option<PathBuf>,
        /// Tiled output (default FILE.tiled.c; `-` for stdout). Left untouched
        /// when its text is unchanged.
        #[arg(short, long, value_name = "OUT")]
        output: Option<PathBuf>,
        /// Do not use or fill the choice cache.
        #[arg(long)]
        no_cache: bool,
        /// Extra measurements `t6-search` spends after its pick on register
        /// tiles (unroll-and-jam of the point loops) and per-dimension tile
        /// shapes, a local search from the model's cubic tile; 0 keeps that tile.
        #[arg(long, value_name = "N", default_value_t = tss::choose::REFINE_BUDGET)]
        refine: usize,
        /// Candidates `t6-search` times before refining, one of each kind of
        /// code first (default: 10 % of the candidates, at most 32). With
        /// `--refine`, the whole measurement budget is the two added. The
        /// loops as written are always timed too (they run anyway, as the
        /// reference every tile's output is checked against).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        search: Option<u32>,
        /// With `--mode t1`: ask the compiler, untimed, what it makes of each kind of code
        /// (loop order, packing, register and vector tiles): each is compiled to assembly
        /// and LLVM's llvm-mca estimates the floating-point lanes per cycle of its hottest
        /// loop; the model's best pick is taken among the kinds estimated at 60 % or more of
        /// the best kind's (needs llvm-mca, Debian: llvm-19; README, "Asking the compiler").
        /// A few seconds per nest.
        #[arg(long)]
        compiled: bool,
        #[command(flatten)]
        timing: TimingArgs,
        #[command(flatten)]
        caches: CacheArgs,
    },
    /// Reproduce the paper's evaluation on a measured test set: TN, speedup,
    /// MAP and PI of T1, T6-Random and T6-Search per kernel, beside the
    /// baselines (tile 32, the cache rule, the best constant tile of the
    /// training rows) and TN against measurements for model-guided and
    /// random search.
    Eval {
        /// Test dataset CSV (collected with --baseline).
        #[arg(long, value_delimiter = ',', required = true, value_name = "FILES")]
        data: Vec<PathBuf>,
        /// Training rows the best constant tile is chosen on (default: the
        /// model's own training files, when they are here).
        #[arg(long, value_delimiter = ',', value_name = "FILES")]
        train: Vec<PathBuf>,
        /// Model directory (default as for `predict`).
        #[arg(long)]
        model: Option<PathBuf>,
        /// Evaluate parallel rows (and the parallel model by default).
        #[arg(long)]
        parallel: bool,
        /// JSON instead of a markdown table.
        #[arg(long)]
        json: bool,
        /// Also write the figures (SVG and PNG) into this directory.
        #[arg(long, value_name = "DIR")]
        plots: Option<PathBuf>,
        /// Kernel files (or directories of `.c` files) the test rows were measured on: needed
        /// to apply the model's untiled gate (without them T1 is the network's pick alone).
        #[arg(long, value_delimiter = ',', value_name = "FILES")]
        kernels: Vec<PathBuf>,
        /// Rank by the ensemble members' mean prediction plus this many standard deviations
        /// of them, so configs the members disagree on rank as slower (0: the mean; a model
        /// of one network is unchanged).
        #[arg(long, default_value_t = 0.0, value_name = "SDS")]
        caution: f64,
        /// Also score "T1 compiled", the pick of `tss predict --mode t1 --compiled`:
        /// compiles every kind of code of every test instance (needs --kernels and
        /// llvm-mca; nothing is timed).
        #[arg(long, requires = "kernels")]
        compiled: bool,
    },
    /// Recompute the stored features of dataset files from the kernels'
    /// sources, timing nothing: after the feature definition grows, old
    /// measurements serve the new set. Checks that features a row already
    /// had come out the same, and replaces each file atomically.
    Refeature {
        /// Dataset CSVs (each beside its directory's machine.json).
        #[arg(required = true, value_name = "CSV")]
        data: Vec<PathBuf>,
        /// Kernel files (or directories of `.c` files) the rows were measured on,
        /// found by file stem; comma-separated or repeated.
        #[arg(long, value_delimiter = ',', required = true, value_name = "FILES")]
        kernels: Vec<PathBuf>,
    },
    /// Ask the compiler, timing nothing, for the lanes per cycle of every kind
    /// of code of the kernels of dataset rows: gcc compiles each kind, llvm-mca
    /// estimates its hottest loop (README, "Asking the compiler"). The estimates
    /// go to compiled.csv beside the rows, where training and `tss eval` read the
    /// `compiled` feature set's columns from. Resumable: kinds already
    /// estimated are skipped, so a rerun after rows were added estimates theirs.
    Estimate {
        /// Dataset CSVs (each beside its directory's machine.json).
        #[arg(required = true, value_name = "CSV")]
        data: Vec<PathBuf>,
        /// Kernel files (or directories of `.c` files) the rows were measured on,
        /// found by file stem; comma-separated or repeated.
        #[arg(long, value_delimiter = ',', required = true, value_name = "FILES")]
        kernels: Vec<PathBuf>,
        /// Rows of another machine: compile for this CPU (gcc's -march, e.g.
        /// znver3, sapphirerapids) in place of the rows' -march=native.
        #[arg(long, value_name = "CPU")]
        march: Option<String>,
        /// The CPU llvm-mca models for those rows, when LLVM names it otherwise
        /// than gcc (default: --march, or native).
        #[arg(long, value_name = "CPU", requires = "march")]
        mcpu: Option<String>,
    },
    /// Fit a model to this machine in minutes: time a sample of candidates
    /// of the paper's kernels (or `--kernels`) here (resumable; rows kept in
    /// the cache), fine-tune the model on them, and save it. The built-in
    /// model's adaptation is where `tss predict` and the build plugins pick
    /// it up on this machine; a `--model DIR` base is saved beside it under
    /// its name (printed), to pass with `--model`.
    Adapt {
        /// How long the whole adaptation may take (`10m`, `90s`, `1h`; a bare
        /// number is minutes): most of it measuring (7/10 for a model of the
        /// space, 4/5 for the built-in one, 19/20 for `--fit correct`) and
        /// the rest tuning, which stops at the end; 0
        /// measures nothing and refits on the rows already collected,
        /// without a time limit.
        #[arg(long, default_value = "10m", value_parser = duration)]
        budget: Duration,
        /// Adapt the parallel model (OpenMP, one thread per core).
        #[arg(long)]
        parallel: bool,
        /// Start from this model directory instead of the built-in model, e.g.
        /// `trained/corpus-serial` (a model of the per-dimension space times
        /// the space's anchors and a sample of its configs; one of the
        /// `compiled` set also compiles each kind of code for its estimates,
        /// which needs llvm-mca).
        #[arg(long, value_name = "DIR")]
        model: Option<PathBuf>,
        /// Kernels to time, files or directories, comma-separated (default:
        /// the paper's six, built in); your own code teaches the most about it.
        #[arg(long, value_delimiter = ',', value_name = "FILES")]
        kernels: Option<Vec<PathBuf>>,
        /// Where to save the adapted model (default: see above).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// The rows file to measure into and fit on (default: this machine's
        /// file under the cache's `adapt/`). With `--budget 0` nothing is
        /// measured: the model is refitted on the rows already there.
        #[arg(long, value_name = "FILE")]
        data: Option<PathBuf>,
        /// How to fit: `correct` keeps the networks and fits a linear
        /// correction of their output (closed form, cross-validated; none if
        /// it does not help), `tune` continues training every weight, `both`
        /// tunes and then corrects (default: `tune`; for a model of the
        /// per-dimension space, `tune` with its own training rows rehearsed
        /// when they are on disk, as from the root of a clone of tss, and
        /// `correct` when they are not). Giving `--fit` turns that
        /// rehearsal off.
        #[arg(long, value_name = "FIT")]
        fit: Option<tss::adapt::Fit>,
        /// Rows files to tune on beside this machine's (whole instances,
        /// 40 rehearsed rows per new one and at least 24 000, as far as
        /// the files hold them; never validated on), e.g. the base
        /// model's own training rows
        /// (`data/amd-epyc-avx2-l2-512k/harness2-constant/corpus-serial-train.csv`),
        /// so that tuning keeps what the model knew of other kernels (the
        /// default for such a model when they are on disk). Implies `--fit
        /// tune` unless `--fit both` is given.
        #[arg(long, value_delimiter = ',', value_name = "FILES")]
        rehearse: Vec<PathBuf>,
        /// Candidates timed per instance, spread over the sizes (default: 8 for
        /// a cubic model, 4 for a space model).
        #[arg(long, value_name = "N")]
        per_instance: Option<usize>,
        /// A space model only: also time its own N best predictions per
        /// instance, in place of the space's anchors (default 4; 0: time the
        /// anchors instead).
        #[arg(long, value_name = "N")]
        picks: Option<usize>,
        /// Take those picks one of each kind of code first (loop order,
        /// packing, vector width, register tile), as the measuring searches
        /// do, instead of the N best, which are mostly one kind at
        /// neighbouring sizes.
        #[arg(long)]
        diverse_picks: bool,
        /// Seed of the instances (rerunning with the same seed adds to the rows).
        #[arg(long, default_value_t = 1000)]
        seed: u64,
        /// Where problem sizes are drawn from, as in `tss collect` (default: the
        /// base model's training range, 1024..2048 for cubic models, 16..2048
        /// with a quarter skinny for space models).
        #[arg(long, value_name = "RANGES")]
        range: Option<String>,
        /// Redraw instances executing fewer / more statement instances than
        /// this (default: 0 / 1e10 for cubic models, 1e7 / 3e8 for space models).
        #[arg(long, value_name = "N")]
        min_work: Option<f64>,
        #[arg(long, value_name = "N")]
        max_work: Option<f64>,
        /// No progress bar.
        #[arg(long, short)]
        quiet: bool,
        #[command(flatten)]
        timing: TimingArgs,
        #[command(flatten)]
        caches: CacheArgs,
    },
    /// Describe this machine as tss records it with data and models (CPU,
    /// vector ISA, caches, cores, compiler and flags from $CC and $CFLAGS),
    /// the data directory its timings belong in, and whether the default
    /// models were trained on such a machine.
    Machine {
        /// Print the descriptor as JSON (a data directory's `machine.json`).
        #[arg(long)]
        json: bool,
    },
    /// Internal: the measurement worker (reads a job on stdin).
    #[command(hide = true)]
    Worker,
}

/// How to time (shared by measure and collect).
#[derive(Args, Clone, Debug)]
struct TimingArgs {
    /// Timed runs per round for candidates within --near of the best (others run once).
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// Repeat a candidate only while its time is within this factor of the best seen.
    #[arg(long, default_value_t = 1.05)]
    near: f64,
    /// Seconds before a candidate counts as hung (its worker is killed).
    #[arg(long, default_value_t = 120)]
    timeout: u64,
    /// `constant`: compile each variant for the instance's sizes, as a
    /// program whose sizes are macros (PolyBench); `runtime`: pass them at
    /// run time, as a library kernel (one object per config, faster to
    /// collect). Tiled code often runs 2x faster with constants.
    #[arg(long, value_enum, default_value_t = SizeBinding::Constant)]
    sizes: SizeBinding,
    /// Worker processes each candidate runs in, in a new order each time;
    /// its time is the median of their fastest runs. Speeds on a shared
    /// machine move between processes. `tss collect` always uses the
    /// harness's number, so that one file's rows are timed alike.
    #[arg(long, default_value_t = tss::machine::ROUNDS)]
    rounds: usize,
}

impl TimingArgs {
    fn policy(&self) -> Policy {
        Policy {
            reps: self.reps.max(1),
            near: self.near.max(1.0),
            timeout: Duration::from_secs(self.timeout.max(1)),
            sizes: self.sizes,
            rounds: self.rounds.max(1),
        }
    }
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

/// `10m`, `90s`, `1h`, `1.5m`; a bare number is minutes.
fn duration(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    let (num, unit) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (&t[..i], c),
        _ => (t, 'm'),
    };
    let secs = match unit {
        's' => 1.0,
        'm' => 60.0,
        'h' => 3600.0,
        _ => return Err(format!("'{s}': the unit is s, m or h (e.g. 10m)")),
    };
    match num.trim().parse::<f64>() {
        Ok(v) if v >= 0.0 && v.is_finite() => Ok(Duration::from_secs_f64(v * secs)),
        _ => Err(format!("'{s}' is not a duration (e.g. 10m, 90s, 1h)")),
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
    let mut cmd = Cli::command();
    if std::env::args().skip(1).any(|a| a == "--version" || a == "-V") {
        // Built only when asked for: it loads both models. Leaked: printed once, then exit.
        let text = format!("{}\n{}", env!("CARGO_PKG_VERSION"), tss::model::source::describe_defaults());
        cmd = cmd.version(&*Box::leak(text.into_boxed_str()));
    }
    let cli = Cli::from_arg_matches(&cmd.get_matches()).unwrap_or_else(|e| e.exit());
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
        Command::Tile {
            file,
            tile,
            unroll,
            no_sink,
            pack,
            vector,
            parallel,
            output,
            explain,
            reverse_marked,
            form,
            index_loops,
        } => {
            let config = Config {
                tiles: parse_sizes(&tile)?,
                unroll: parse_unroll(&unroll)?,
                sink: !no_sink,
                pack,
                vector: vector.into(),
                form: if index_loops { tss::Form::Index } else { form },
            };
            let opts = TileOptions { config, parallel, reverse_marked };
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
                write_if_changed(&out, &code)?;
                eprintln!("tss: wrote {}", out.display());
            }
            Ok(())
        }
        Command::Fuzz { programs, mutants, seed, jobs, kernels, work, tile_timeout, quiet, show } => {
            if let Some(seed) = show {
                print!("{}", tss::fuzz::programs::program(seed).source);
                return Ok(());
            }
            let cfg = tss::fuzz::Config {
                tss: std::env::current_exe().map_err(|source| Error::Io { path: "tss".into(), source })?,
                cc: std::env::var("CC").unwrap_or_else(|_| "cc".into()),
                work,
                tile_timeout: Duration::from_secs_f64(tile_timeout),
                run_timeout: Duration::from_secs(20),
                kernels,
            };
            let plan = tss::fuzz::Plan { programs, mutants, first: seed, jobs };
            let summary = tss::fuzz::run_with_progress(&cfg, &plan, quiet);
            print!("{summary}");
            if summary.failed() > 0 {
                return Err(Error::Usage(format!(
                    "fuzz: {} of {} cases failed (kept under the work directory)",
                    summary.failed(),
                    summary.total()
                )));
            }
            Ok(())
        }
        Command::Features { file, size, tile, set, json, caches } => {
            features(&file, &size, &tile, set, json, &caches.resolve())
        }
        Command::Measure { file, size, tile, parallel, baseline, json, timing } => {
            measure(&file, &size, &tile, parallel, baseline, json, &timing)
        }
        Command::Collect {
            kernels,
            instances,
            seed,
            range,
            skinny,
            max_work,
            min_work,
            out,
            parallel,
            baseline,
            non_cubic,
            registers,
            space,
            quiet,
            timing,
            caches,
        } => {
            let plan = tss::collect::Plan {
                kernels: kernel_files(&kernels)?,
                instances,
                seed,
                ranges: Ranges { skinny, ..Ranges::parse(&range, (1024, 2048)).map_err(Error::Usage)? },
                max_work,
                min_work,
                mode: Mode::from_parallel(parallel),
                baseline,
                non_cubic,
                registers,
                space,
                caches: caches.resolve(),
                policy: timing.policy(),
                out: out.clone(),
                progress: !quiet,
                sample: None,
                deadline: None,
                guide: None,
            };
            let s = tss::collect::collect(&plan)?;
            eprintln!(
                "tss: {}: {} rows measured, {} failed, {} already there; {:.0} s wall for {:.0} s of kernel runs ({:.2}x)",
                out.display(),
                s.measured,
                s.failed,
                s.skipped,
                s.wall_seconds,
                s.kernel_seconds,
                if s.kernel_seconds > 0.0 { s.wall_seconds / s.kernel_seconds } else { 0.0 }
            );
            Ok(())
        }
        Command::Train {
            data,
            out,
            set,
            target,
            loss,
            epochs,
            patience,
            lr,
            batch,
            hidden,
            dropout,
            weight_decay,
            cap,
            untiled_weight,
            log_inputs,
            val_by,
            seed,
            ensemble,
            stop_on,
            test,
            pool_machines,
            kernels,
            gate_tn,
            gate,
            blend,
        } => {
            if !(0.0..1.0).contains(&dropout) {
                return Err(Error::Usage(format!("--dropout {dropout}: must lie in [0, 1)")));
            }
            if !(0.0..1.0).contains(&weight_decay) {
                return Err(Error::Usage(format!("--weight-decay {weight_decay}: must lie in [0, 1)")));
            }
            let cfg = TrainConfig {
                feature_set: set,
                target,
                loss,
                max_epochs: epochs,
                patience,
                learning_rate: lr,
                batch_size: batch,
                hidden: hidden as usize,
                dropout,
                weight_decay,
                log_inputs,
                val_by,
                seed,
                ensemble: ensemble as usize,
                stop_on,
                cap,
                untiled_weight: untiled_weight.max(1) as usize,
                ..TrainConfig::default()
            };
            cfg.check_cap().map_err(Error::Usage)?;
            if cfg.untiled_weight > 1 && cfg.loss == Loss::Pairwise {
                return Err(Error::Usage(
                    "--untiled-weight weighs rows of the Huber loss; --loss pairwise has none".into(),
                ));
            }
            let kernels = kernel_files(&kernels)?;
            let kind = gate.or((!kernels.is_empty()).then_some(GateKind::Rules));
            if kind.is_some_and(|k| k != GateKind::Linear) && kernels.is_empty() {
                return Err(Error::Usage(
                    "--gate rules/both need --kernels (the rules read the kernels' sources)".into(),
                ));
            }
            let gate = BesideArgs { kernels, kind, assumed_tn: gate_tn, blend };
            train(&data, &out, cfg, test.as_deref(), pool_machines, &gate)
        }
        Command::Blend { model, data, remove } => {
            let mut m = tss::model::saved::SavedModel::load(&model).map_err(Error::Usage)?;
            m.meta.ranker = None;
            if !remove {
                let rows = dataset::load_for(&data, m.feature_set(), &[]).map_err(Error::Usage)?;
                m.meta.ranker = fit_ranker(&m, &rows)?;
            }
            m.save().map_err(Error::Usage)?;
            eprintln!("tss: wrote {}", model.join("model.json").display());
            Ok(())
        }
        Command::Gate { model, data, kind, kernels, gate_tn, remove, samples } => {
            let mut m = tss::model::saved::SavedModel::load(&model).map_err(Error::Usage)?;
            m.meta.gate = None;
            if !remove {
                let kernels = kernel_files(&kernels)?;
                let rows = dataset::load_for(&data, m.feature_set(), &kernels).map_err(Error::Usage)?;
                if kernels.is_empty() && (kind != GateKind::Linear || samples.is_some()) {
                    return Err(Error::Usage("tss gate: rules, both and --samples need --kernels".into()));
                }
                if let Some(out) = &samples {
                    write_gate_samples(out, &rows, &kernels, m.feature_set())?;
                }
                let machine = dataset::one_machine(&data, &rows, false).ok().flatten();
                m.meta.gate = tss::gate::fit_on(&rows, machine, &kernels, m.feature_set(), kind, gate_tn)?;
                match &m.meta.gate {
                    Some(g) => eprintln!("tss: gate: {}", g.describe()),
                    None => eprintln!("tss: no gate: keeping the original gains nothing on these rows"),
                }
            }
            m.save().map_err(Error::Usage)?;
            eprintln!("tss: wrote {}", model.join("model.json").display());
            Ok(())
        }
        Command::Predict {
            file,
            size,
            mode,
            parallel,
            model,
            json,
            emit,
            emit_to,
            output,
            no_cache,
            refine,
            search,
            compiled,
            timing,
            caches,
        } => {
            let mut opts = ChooseOptions::new(parallel);
            if compiled && mode != Strategy::T1 {
                return Err(Error::Usage(format!(
                    "--compiled applies to --mode t1, not {mode} (which times the kinds of code itself)"
                )));
            }
            opts.compiled = compiled;
            opts.strategy = mode;
            opts.refine = refine;
            opts.search = search.map(|n| n as usize);
            opts.caches = caches.resolve();
            opts.policy = timing.policy();
            if let Some(m) = model {
                opts.model = ModelSource::Dir(m);
            }
            if no_cache {
                opts.cache = None;
            }
            let c = choose_tiles(&file, &size, &opts)?;
            for w in &c.warnings {
                eprintln!("tss: warning: {w}");
            }
            let emitted = match emit.as_deref() {
                Some("defines") => Some(format!("{}\n", c.defines())),
                Some("header") => Some(c.header()),
                Some(_) => Some(report::choice_json(&c)),
                None if json => Some(report::choice_json(&c)),
                None => None,
            };
            match (emitted, emit_to) {
                (Some(text), Some(to)) => write_if_changed(&to, &text)?,
                (Some(text), None) => print!("{text}"),
                (None, _) => print!("{}", report::choice(&c)),
            }
            let out = match (&emit, output) {
                (Some(_), None) => None,
                (_, Some(o)) => Some(o),
                (None, None) => Some(default_output(&file)),
            };
            if let Some(out) = out {
                if out == Path::new("-") {
                    print!("{}", c.code);
                } else {
                    write_if_changed(&out, &c.code)?;
                    eprintln!("tss: wrote {}", out.display());
                }
            }
            Ok(())
        }
        Command::Adapt {
            budget,
            parallel,
            model,
            kernels,
            out,
            data,
            fit,
            rehearse,
            per_instance,
            picks,
            diverse_picks,
            seed,
            range,
            min_work,
            max_work,
            quiet,
            timing,
            caches,
        } => {
            let ranges = range.map(|r| Ranges::parse(&r, (1024, 2048))).transpose().map_err(Error::Usage)?;
            let plan = tss::adapt::AdaptPlan {
                parallel,
                base: model,
                kernels: kernels.map(|k| kernel_files(&k)).transpose()?,
                out,
                data,
                fit,
                rehearse,
                min_work,
                max_work,
                budget,
                per_instance: per_instance.map(|n| n.max(1)),
                picks,
                diverse_picks,
                seed,
                ranges,
                caches: caches.resolve(),
                policy: timing.policy(),
                progress: !quiet,
            };
            let report = tss::adapt::adapt(&plan, &mut |_, _, _, _| {})?;
            print!("{report}");
            Ok(())
        }
        Command::Machine { json } => {
            let c = Compiler::from_env().map_err(Error::Usage)?;
            let here = tss::machine::Descriptor::detect(&c.version, &c.flags());
            if json {
                println!("{}", serde_json::to_string_pretty(&here).expect("a descriptor serialises"));
            } else {
                print!("{}", tss::model::source::describe_machine(&here));
            }
            Ok(())
        }
        Command::Estimate { data, kernels, march, mcpu } => estimate(&data, &kernel_files(&kernels)?, march, mcpu),
        Command::Refeature { data, kernels } => {
            let kernels = kernel_files(&kernels)?;
            for path in &data {
                let s = tss::refeature::refeature(path, &kernels)?;
                eprintln!("tss: {}: {} rows refeatured", path.display(), s.rows);
                if let Some(first) = s.first_change {
                    eprintln!(
                        "tss: warning: {} rows had other values for features they already stored; first: {first}",
                        s.changed
                    );
                }
            }
            Ok(())
        }
        Command::Eval { data, train, model, parallel, json, plots, kernels, caution, compiled } => {
            let model = model
                .map_or(ModelSource::default_for(parallel), ModelSource::Dir)
                .load()
                .map_err(Error::Usage)?
                .with_caution(caution);
            let mode = Mode::from_parallel(parallel).to_string();
            let kernels = kernel_files(&kernels)?;
            let records: Vec<_> = dataset::load_for(&data, model.feature_set(), &kernels)
                .map_err(Error::Usage)?
                .into_iter()
                .filter(|r| r.mode == mode)
                .collect();
            if records.is_empty() {
                return Err(Error::Usage(format!("no {mode} rows in {}", list_paths(&data))));
            }
            let constants = constant_tiles(&train, &model, &mode)?;
            let facts = source_facts(&model, &records, &kernels, compiled)?;
            let evals = eval::evaluate(&model, &records, &constants, &facts);
            if evals.is_empty() {
                return Err(Error::Usage(nothing_to_evaluate(&records, &data, model.feature_set())));
            }
            let curve = eval::search_curve(&evals, 16);
            if json {
                let out = serde_json::json!({
                    "summary": eval::summarize(&evals.iter().collect::<Vec<_>>()),
                    "constant": constants.plain,
                    "constant_vector": constants.vector,
                    "search_curve": curve,
                    "instances": evals,
                });
                println!("{}", serde_json::to_string_pretty(&out).expect("json"));
            } else {
                println!("{}", eval::markdown(&evals));
                println!("{}", eval::curve_markdown(&curve));
            }
            if let Some(dir) = plots {
                let title = format!("{mode}, {}", tested_on(&records));
                let (files, notes) = tss::plots::write_all(&evals, &curve, &dir, &title).map_err(Error::Usage)?;
                for n in notes {
                    eprintln!("tss: note: {n}");
                }
                eprintln!("tss: wrote {} figures into {}", files.len(), dir.display());
            }
            Ok(())
        }
        Command::Worker => tss::harness::worker::serve(std::io::stdin().lock(), std::io::stdout().lock())
            .map_err(|e| Error::Usage(format!("worker: {e}"))),
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
    if set.needs_compiler() {
        return Err(Error::Usage(format!(
            "--set {set}: its last columns come from the compiler, not the source (tss estimate, or tss predict with \
             such a model); tss features prints up to --set copy"
        )));
    }
    let a = tss::analyze(file, &read(file)?, false)?;
    let sizes = Sizes::parse(&a.scop.params, size).map_err(Error::Usage)?;
    let ps = a.extents(&sizes)?;
    let tiles: Vec<Config> = if tiles.is_empty() {
        a.kernel.candidates(&ps, caches).into_iter().map(Config::cubic).collect()
    } else {
        tiles.iter().map(|t| t.parse::<Config>().map_err(Error::Usage)).collect::<Result<_, _>>()?
    };
    let names = set.names();
    let shape = a.shape(&sizes, tss::machine::Descriptor::detect("", "").vector_bits, 1)?;
    let rows: Vec<Vec<f64>> = tiles.iter().map(|t| a.kernel.vector(set, &shape, Some(t), caches)).collect();
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

fn measure(
    file: &Path,
    size: &str,
    tiles: &[String],
    parallel: bool,
    baseline: bool,
    json: bool,
    timing: &TimingArgs,
) -> Result<(), Error> {
    let a = tss::analyze(file, &read(file)?, parallel)?;
    let sizes = Sizes::parse(&a.scop.params, size).map_err(Error::Usage)?;
    let mut variants: Vec<Variant> =
        tiles.iter().map(|t| parse_config(t).map(Variant::Tiled)).collect::<Result<_, _>>()?;
    if baseline {
        variants.insert(0, Variant::Untiled);
    }
    let compiler = Compiler::from_env().map_err(Error::Usage)?;
    let policy = timing.policy();
    let session = Session::new(&a, Mode::from_parallel(parallel), compiler, policy).map_err(Error::Usage)?;
    let mut results = Vec::new();
    session
        .measure(&sizes, &variants, None, if baseline { policy.reps } else { 1 }, |v, t| {
            if !json {
                eprintln!("tss: {v}: {} {}", t.status, t.median().map_or(String::new(), |m| format!("{m:.4} s")));
            }
            results.push((v.clone(), t));
        })
        .map_err(|e| Error::Usage(format!("{}: {e}", file.display())))?;
    let base = results.iter().find(|(v, _)| *v == Variant::Untiled).and_then(|(_, t)| t.median());
    if json {
        let rows: Vec<serde_json::Value> = results
            .iter()
            .filter(|(v, _)| baseline || *v != Variant::Untiled)
            .map(|(v, t)| {
                serde_json::json!({
                    "variant": v.to_string(), "status": t.status.to_string(), "times": t.times,
                    "min": t.min(), "median": t.median(), "checksum": t.checksum, "detail": t.detail,
                    "speedup": base.zip(t.median()).map(|(b, m)| b / m),
                })
            })
            .collect();
        let out = serde_json::json!({ "file": file.display().to_string(), "sizes": sizes.to_string(),
            "mode": Mode::from_parallel(parallel).to_string(), "cc": session.compiler.version,
            "cflags": session.compiler.flags(), "results": rows });
        println!("{}", serde_json::to_string_pretty(&out).expect("json"));
    } else {
        println!(
            "# {} {sizes} ({}; {} {})",
            file.display(),
            Mode::from_parallel(parallel),
            session.compiler.cc,
            session.compiler.flags()
        );
        println!("variant\tstatus\tmin_s\tmedian_s\truns\tspeedup");
        for (v, t) in results.iter().filter(|(v, _)| baseline || *v != Variant::Untiled) {
            let f = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{x:.4}"));
            let sp = base.zip(t.median()).map(|(b, m)| b / m);
            println!("{v}\t{}\t{}\t{}\t{}\t{}", t.status, f(t.min()), f(t.median()), t.times.len(), f(sp));
        }
    }
    Ok(())
}

/// The CPUs (with family and model where known) the test rows were timed
/// on, for figure titles: the machine a figure speaks for.
fn tested_on(rows: &[dataset::Record]) -> String {
    let mut cpus: Vec<String> = rows
        .iter()
        .map(
            |r| if r.meta.cpu_id.is_empty() { r.meta.cpu.clone() } else { format!("{} {}", r.meta.cpu, r.meta.cpu_id) },
        )
        .collect();
    cpus.sort();
    cpus.dedup();
    cpus.join(" + ")
}

fn list_paths(p: &[PathBuf]) -> String {
    p.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
}

/// `tss gate --samples`: one line per training instance.
fn write_gate_samples(out: &Path, rows: &[dataset::Record], kernels: &[PathBuf], set: FeatureSet) -> Result<(), Error> {
    let traits = tss::gate::traits_of(rows, &mut tss::refeature::Sources::new(kernels), true)?;
    let mut text = String::from("instance,log_data,unit,other,reductions,recurrences,threaded,untiled_tn\n");
    for (key, t, tn) in tss::gate::labelled_samples(rows, &traits, set) {
        let cells = format!(
            "{},{},{},{},{},{}",
            t.log_data,
            t.unit,
            t.other,
            t.reductions,
            t.recurrences,
            u8::from(t.threaded)
        );
        text.push_str(&format!("\"{key}\",{cells},{tn}\n"));
    }
    std::fs::write(out, text).map_err(|source| Error::Io { path: out.into(), source })
}

/// What `tss train` fits beside the networks: the untiled gate and the
/// blended ranker.
struct BesideArgs {
    kernels: Vec<PathBuf>,
    /// `None`: no gate.
    kind: Option<GateKind>,
    assumed_tn: f64,
    /// Also fit the blended ranker.
    blend: bool,
}

/// The blended ranker of `model` on its training rows `rows`, said on
/// stderr; an error when no row carries the stored columns.
fn fit_ranker(
    model: &tss::model::saved::SavedModel,
    rows: &[dataset::Record],
) -> Result<Option<tss::model::ranker::Ranker>, Error> {
    let cap = model.meta.config.cap.unwrap_or(2.0);
    let r = tss::model::ranker::Ranker::fit(rows, model.feature_set(), cap).ok_or_else(|| {
        Error::Usage("no training rows with every stored feature column: run tss refeature on them first".into())
    })?;
    eprintln!("tss: ranker: {}", r.describe());
    Ok(Some(r))
}

/// `tss estimate`: the compiler's table of each data directory among
/// `data`, for this machine or, with `march`, for the rows' own CPU.
fn estimate(data: &[PathBuf], kernels: &[PathBuf], march: Option<String>, mcpu: Option<String>) -> Result<(), Error> {
    let mut dirs: Vec<&Path> = data.iter().map(|p| dataset::dir_of(p)).collect();
    dirs.sort();
    dirs.dedup();
    let mca = tss::compiled::Mca::find().ok_or_else(|| Error::Usage(tss::compiled::NO_MCA.into()))?;
    for dir in dirs {
        let files: Vec<PathBuf> = data.iter().filter(|p| dataset::dir_of(p) == dir).cloned().collect();
        let mut filler = tss::compiled::Filler::for_rows(dir, mca.clone(), march.as_deref(), mcpu.as_deref())?;
        let records = dataset::load_all(&files).map_err(Error::Usage)?;
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} kernels {msg}, ETA {eta}",
            )
            .expect("template"),
        );
        let n = tss::compiled::estimate_table(&records, kernels, &mut filler, |done, of, k| {
            bar.set_length(of as u64);
            bar.set_position(done as u64);
            bar.set_message(k.to_string());
        })?;
        bar.finish_and_clear();
        eprintln!("tss: {}: {n} kernels estimated for {}", filler.path().display(), filler.describe());
    }
    Ok(())
}

/// Why `tss eval` found no instance of `records` (the rows of `data`) to
/// score, where an empty report would say nothing: rows written before the
/// model's feature set `set` existed (widened by `tss refeature`), or no
/// instance with two timed candidates to compare.
fn nothing_to_evaluate(records: &[dataset::Record], data: &[PathBuf], set: FeatureSet) -> String {
    let files = list_paths(data);
    if records.iter().any(|r| r.has_features(set)) {
        return format!("{files}: no instance has two timed candidates the model's `{set}` set describes");
    }
    if set > dataset::STORED && records.iter().any(|r| r.has_features(dataset::STORED)) {
        return format!(
            "{files}: the model's `{set}` set computes columns no file stores from the kernels' sources, and none \
             of their kernels was found: give --kernels <the kernels they were measured on>"
        );
    }
    format!(
        "{files}: no row has the {} feature columns the model's `{set}` set reads (the rows predate it): run `tss \
         refeature --kernels <the kernels they were measured on> <file>` first, which times nothing",
        set.len()
    )
}

/// The rows of `tss train --test`'s file, refused when none is as wide as
/// the feature set `set` the model will read (the same reason `tss eval`
/// gives).
fn scorable_rows(test: &Path, set: FeatureSet, kernels: &[PathBuf]) -> Result<Vec<dataset::Record>, Error> {
    let recs = dataset::load_for(&[test.to_path_buf()], set, kernels).map_err(Error::Usage)?;
    if recs.iter().any(|r| r.has_features(set)) {
        return Ok(recs);
    }
    Err(Error::Usage(nothing_to_evaluate(&recs, &[test.to_path_buf()], set)))
}

/// What the kernels' sources say of each instance of `records`, for `tss
/// eval` and `tss train --test` alike (one place, so both apply the same
/// rules): the original's traits, the copies larger than L2, and the
/// compiler's estimates where `compiled` asks for them.
fn source_facts(
    model: &tss::model::saved::SavedModel,
    records: &[dataset::Record],
    kernels: &[PathBuf],
    compiled: bool,
) -> Result<eval::SourceFacts, Error> {
    // One analysis and one shape per instance for the three.
    let mut sources = tss::refeature::Sources::new(kernels);
    Ok(eval::SourceFacts {
        traits: untiled_traits(model, records, &mut sources)?,
        oversized: eval::oversized_copies(records, &mut sources)?,
        compiled: compiled_estimates(compiled, records, &mut sources)?,
    })
}

/// The compiler's estimates of every instance of `records` for `tss eval
/// --compiled` (none without the flag), with a progress bar.
fn compiled_estimates(
    wanted: bool,
    records: &[dataset::Record],
    sources: &mut tss::refeature::Sources,
) -> Result<std::collections::HashMap<tss::gate::InstanceKey, tss::compiled::Estimates>, Error> {
    if !wanted {
        return Ok(Default::default());
    }
    let mca = tss::compiled::Mca::find().ok_or_else(|| Error::Usage(tss::compiled::NO_MCA.into()))?;
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} instances compiled, ETA {eta}",
        )
        .expect("template"),
    );
    let out = tss::compiled::estimate_records(records, sources, &mca, |done, of| {
        bar.set_length(of as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    out
}

/// The untiled traits of `records`' instances from the kernels' sources
/// (`sources`): what the gate's rules and the rule that never puts a
/// recurrent original first read. Without kernels, none, with a note; rows
/// of kernels not among them have none unless the gate's rules need them
/// (an error).
fn untiled_traits(
    model: &tss::model::saved::SavedModel,
    records: &[dataset::Record],
    sources: &mut tss::refeature::Sources,
) -> Result<std::collections::HashMap<tss::gate::InstanceKey, tss::gate::UntiledTraits>, Error> {
    let any = !sources.is_empty();
    let rules = model.meta.gate.as_ref().is_some_and(|g| g.needs_traits());
    if let Some(g) = model.meta.gate.as_ref().filter(|_| !rules || any) {
        eprintln!("tss: gate: {}", g.describe());
    }
    if !any {
        let rule = "the rule that never puts a recurrent original first";
        let what = if rules { format!("the model's untiled gate and {rule} are") } else { format!("{rule} is") };
        eprintln!("tss: note: without --kernels, {what} not applied");
        return Ok(Default::default());
    }
    tss::gate::traits_of(records, sources, rules)
}

fn train(
    data: &[PathBuf],
    out: &Path,
    cfg: TrainConfig,
    test: Option<&Path>,
    pool: bool,
    gate: &BesideArgs,
) -> Result<(), Error> {
    let bar = indicatif::ProgressBar::new(cfg.max_epochs as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {prefix} epoch {pos}/{len} {msg}")
            .expect("template"),
    );
    // Hours of training must not end in an empty test report: rows too
    // narrow for the set stop here, before any epoch.
    let test_rows = match test {
        Some(t) => Some(scorable_rows(t, cfg.feature_set, &gate.kernels)?),
        None => None,
    };
    // The training rows, read once for the networks, the gate, the blend
    // and the constant baselines.
    let rows = dataset::load_for(data, cfg.feature_set, &gate.kernels).map_err(Error::Usage)?;
    let members = cfg.ensemble;
    let t0 = std::time::Instant::now();
    let (mut model, r) = tss::model::fit(data, &rows, out, cfg, pool, &mut |k, e, tl, vl| {
        bar.set_prefix(format!("network {}/{members}", k + 1));
        bar.set_position(e as u64);
        bar.set_message(format!("train {tl:.4} val {vl:.4}"));
    })
    .map_err(Error::Usage)?;
    bar.finish_and_clear();
    eprintln!(
        "tss: {} rows, {:.1} s; {} network(s), best epochs {:?}; Huber loss train {:.5}, validation {:.5} of the mean ({} train / {} validation instances)",
        r.rows,
        t0.elapsed().as_secs_f64(),
        r.best_epochs.len(),
        r.best_epochs,
        r.train_loss,
        r.val_loss,
        r.train_instances,
        r.val_instances
    );
    for (m, s) in &r.validation {
        eprintln!("tss: validation {m}: TN {:.3} (geometric mean {:.3})", s.tn, s.tn_geo);
    }
    if let Some(kind) = gate.kind {
        let machine = model.meta.data.machine.clone();
        model.meta.gate = tss::gate::fit_on(&rows, machine, &gate.kernels, model.feature_set(), kind, gate.assumed_tn)?;
        match &model.meta.gate {
            Some(g) => eprintln!("tss: gate: {}", g.describe()),
            None => eprintln!("tss: no untiled gate: keeping the original gains nothing on the training rows"),
        }
    }
    if gate.blend {
        model.meta.ranker = fit_ranker(&model, &rows)?;
    }
    if let (Some(test), Some(recs)) = (test, test_rows) {
        let constants = eval::best_constant(&rows, model.feature_set());
        let facts = source_facts(&model, &recs, &gate.kernels, false)?;
        let evals = eval::evaluate(&model, &recs, &constants, &facts);
        if evals.is_empty() {
            // The model is trained; keep it and say why there is no score.
            let why = nothing_to_evaluate(&recs, &[test.to_path_buf()], model.feature_set());
            eprintln!("tss: warning: no test score: {why}");
        } else {
            let summary = eval::summarize(&evals.iter().collect::<Vec<_>>());
            println!("{}", eval::markdown(&evals));
            model.meta.scores["test"] = serde_json::json!({ "file": test.display().to_string(), "summary": summary });
        }
    }
    model.save().map_err(Error::Usage)?;
    eprintln!("tss: wrote {}", out.display());
    Ok(())
}

/// Files as given; directories expand to their `.c` files, sorted, but not
/// to the `.tiled.c` files `tss tile` writes beside its input.
fn kernel_files(items: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    let mut out = Vec::new();
    for p in items {
        if p.is_dir() {
            let rd = std::fs::read_dir(p).map_err(|source| Error::Io { path: p.clone(), source })?;
            let mut v: Vec<PathBuf> = rd
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|e| e == "c"))
                // tss's own output beside its input (`tss tile dir/k.c`) is no kernel.
                .filter(|f| f.file_name().is_none_or(|n| !n.to_string_lossy().ends_with(".tiled.c")))
                .collect();
            v.sort();
            out.extend(v);
        } else if p.exists() {
            out.push(p.clone());
        } else {
            return Err(Error::Io { path: p.clone(), source: std::io::Error::from(std::io::ErrorKind::NotFound) });
        }
    }
    Ok(out)
}

/// Integers print as integers, ratios with four significant decimals.
fn fmt_num(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 { format!("{}", v as i64) } else { format!("{v:.4}") }
}

/// `32` or `16,64,8`: positive integers.
fn parse_sizes(s: &str) -> Result<Vec<usize>, Error> {
    tss::config::parse_list(s, "tile size", usize::MAX).map_err(|e| Error::Usage(format!("--tile: {e}")))
}

/// `--tile` of `tss measure`: `64,256,128`, `64x256x128`, or with unroll
/// factors `64x256x128:4x1x4`.
fn parse_config(s: &str) -> Result<Config, Error> {
    s.parse::<Config>().map_err(|e| Error::Usage(format!("--tile: {e}")))
}

fn parse_unroll(s: &str) -> Result<Vec<usize>, Error> {
    tss::config::parse_list(s, "unroll factor", tss::config::MAX_UNROLL)
        .map_err(|e| Error::Usage(format!("--unroll: {e}")))
}

/// The constant baselines of `train` (or of the model's training files
/// when they exist here), said on stderr; none when there are no such rows.
fn constant_tiles(
    train: &[PathBuf],
    model: &tss::model::saved::SavedModel,
    mode: &str,
) -> Result<eval::Constants, Error> {
    let files: Vec<PathBuf> = if train.is_empty() {
        model.meta.data.files.iter().map(PathBuf::from).filter(|p| p.exists()).collect()
    } else {
        train.to_vec()
    };
    if files.is_empty() {
        eprintln!("tss: note: no training rows here (--train FILES): the 'constant' baselines are left out");
        return Ok(eval::Constants::default());
    }
    // A constant reads no feature, and the sets wider than the stored one
    // rank the same kinds of rows: their columns need not be derived here.
    let set = model.feature_set().min(dataset::STORED);
    let rows: Vec<_> =
        dataset::load_all(&files).map_err(Error::Usage)?.into_iter().filter(|r| r.mode == mode).collect();
    let c = eval::best_constant(&rows, set);
    if let Some(t) = &c.plain {
        eprintln!("tss: constant baseline: tile {t}, the best on {}", list_paths(&files));
    }
    if let Some(t) = &c.vector {
        eprintln!("tss: constant+vector baseline: tile {t}, as its vector anchor where the instance has one");
    }
    Ok(c)
}

/// Writes `text` to `path` unless it already holds exactly that, keeping
/// the file's time stamp so that Make, Ninja and cargo do not rebuild.
fn write_if_changed(path: &Path, text: &str) -> Result<(), Error> {
    if std::fs::read(path).is_ok_and(|old| old == text.as_bytes()) {
        return Ok(());
    }
    std::fs::write(path, text).map_err(|source| Error::Io { path: path.into(), source })
}

/// `dir/gemm.c` -> `dir/gemm.tiled.c`, like polycc's `.pluto.c`.
fn default_output(file: &Path) -> PathBuf {
    let stem = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    file.with_file_name(format!("{stem}.tiled.c"))
}
