//! The paper's features (Table 5), extracted from the polyhedral model and
//! the tiled schedule instead of by hand, so any SCoP gets a vector.
//!
//! Extraction has two halves with different costs:
//! - [`Kernel::analyze`] runs once per SCoP: it picks the statement the
//!   features describe, the three loops, their loop-structure bits (read from
//!   the iteration domain with ISL) and their locality (from the access
//!   functions and the intra-tile order the tiler chose);
//! - [`Kernel::extents`] (one small ISL query per problem instance) and
//!   [`Kernel::vector`] (arithmetic per candidate tile) are what prediction
//!   repeats, so they stay cheap.
//!
//! # Generalisation beyond the paper's kernels
//! The paper's kernels hold one statement in a 3-deep nest over 2-D arrays.
//! For anything else:
//! - **Which statement.** The *dominant* statement: among the statements of
//!   tiled bands, the deepest, then the one with most references, then the
//!   first in source order (PolyBench gemm: the `+=` statement, not the
//!   `*= beta` one; 2mm/3mm: the first product). Other statements do not
//!   enter the vector: they are lower-dimensional or repeat the same shape.
//!   A SCoP without a tiled band falls back to its deepest statement with
//!   its own loops as the "tile" loops.
//! - **Which loops.** L1, L2, L3 are the three innermost intra-tile loops of
//!   the dominant statement's band, outermost first. PS1..PS3 and the
//!   loop-structure bits take the same three loops in *tile-loop order*,
//!   the source nesting order Pluto keeps (matmul: i, j, k while the
//!   intra-tile order is i, k, j). Skewed members (stencils) are measured in
//!   the skewed space.
//! - **Fewer than three loops.** Missing loops are padded on the outside as
//!   one-iteration loops starting at 0: PS = 1, TS = 1, every reference
//!   invariant in them.
//! - **Tile sizes** are indexed by band member as in `tss tile --tile`; TS1..TS3
//!   follow the feature loops. The paper set's TS is the cubic size (the
//!   rounded geometric mean of TS1..TS3 for a non-cubic tile).

use std::fmt;
use std::str::FromStr;

use isl_rs::{Context, Map, Set};
use serde::{Deserialize, Serialize};

use crate::config::{Config, size_at};
use crate::frontend::{Access, Scop, Statement};
use crate::gate::UntiledTraits;
use crate::instance::Sizes;
use crate::machine::Caches;
use crate::poly::PolyError;
use crate::poly::locality::{Stride, classify, direction};
use crate::poly::tile::{Band, Row, single_iterator};

/// Bytes per array element of `double`, the paper's kernels' and PolyBench's default.
pub const ELEMENT_BYTES: u64 = 8;

/// A named, ordered feature set: the one definition of column order shared
/// by collection, training and prediction. Declared narrowest first: each
/// set is the one before it plus its own columns, so `a >= b` means `a`
/// includes `b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum FeatureSet {
    /// Exactly the paper's 29 features in Table 5 order.
    #[default]
    Paper,
    /// The 29, then per-dimension tile sizes, tile working set against L1
    /// and L2, the partial-tile fraction and log iteration and tile counts.
    Extended,
    /// `extended`, then the register tile: the unroll-and-jam factors of the
    /// outer and middle point loops in intra-tile order (the innermost is the
    /// vector loop, never unrolled) and their product, the copies of the
    /// body per vector iteration. It also describes the untiled original, as
    /// the 1x1x1 tile without unrolling (no config of the space has it), so
    /// a model of this set can answer "do not tile".
    Registers,
    /// `registers`, then what the paper's three loops miss in an arbitrary
    /// SCoP: whether the code is untiled, the tiled band's depth, the
    /// extents and tile counts of the members outside the three feature
    /// loops (4- to 6-deep NN and tensor nests), the statement instances of
    /// every statement (multi-statement kernels), the element size, and the
    /// innermost tile's length in vectors of this machine ([`Shape`]).
    Scop,
    /// `scop`, then the analytical data movement of [`traffic`]: bytes
    /// loaded into L1 and into L2 per statement instance, and the bytes of
    /// all data touched per instance, each as a logarithm.
    Traffic,
    /// `traffic`, then the loop order around a band that leaves loops inside
    /// it ([`crate::Config::sink`]): whether its parallel member runs below
    /// those loops, and the log of their iterations per point of the band
    /// (short loops below make sinking cost; long ones make it pay).
    Sink,
    /// `sink`, then the L1 set conflicts of [`conflict`]: the fraction of
    /// the lines of one pass of the innermost point loop, and of the two
    /// innermost, that overfull L1 sets evict while a fully associative L1
    /// would keep them (rows a multiple of 4 KiB apart share sets), at the
    /// arrays' real row pitches.
    Conflict,
    /// `conflict`, then packing ([`crate::Config::pack`]): how many
    /// references of the dominant statement the config copies into packed
    /// buffers (0 for configs that do not pack, and kernels with nothing to
    /// pack). The views of packing configs also see their intra-tile order
    /// and leave the copied references out of the conflicts.
    Pack,
    /// `pack`, then the vector register tile ([`crate::Config::vector`]):
    /// its width in vectors, its rows, and how full it keeps the vector
    /// registers (accumulators plus one load per vector, over the 16 or 32
    /// registers of this machine's vector width); zeros without one. Older
    /// sets see a vector tile as the plain config it rewrites, so only
    /// models of this set rank `/vG` candidates.
    Vector,
    /// `vector`, then how the config's code spreads over threads (what the
    /// parallel mode's time turns on, and no other set sees): the log of
    /// the threads it runs on (0 serial), the log of one plus the units of
    /// work its parallel loop hands out (the tiles of the dominant band's
    /// parallel tile loop, the widest wavefront's tiles, or the iterations
    /// of the untiled code's outer loop; 0 when the parallel loop lies
    /// outside the band), and the fraction of thread slots a static
    /// schedule leaves idle (one tile on two threads: 0.5).
    Parallel,
    /// `parallel`, then what decides whether tiling pays at all, the same
    /// for every config of a kernel: the stride-1, strided and reduction
    /// references along the loop the *untiled* code runs innermost (the
    /// locality columns describe the tiler's intra-tile order, which the
    /// untiled row does not run), and how many members of the tiled band
    /// are skewed (a skewed tile's point loops have bounds that move with
    /// the outer ones). Held out by family, the untiled-or-tiled call is
    /// about a third of the first pick's error (README, "Results").
    Source,
    /// `source`, then the *runner-up*: the dominant statement of the tiled
    /// bands other than the dominant one's, which a SCoP of several bands
    /// (atax, mvt, gemver, many random nests) runs beside it under the
    /// same config. Without these columns every config that changes only
    /// that band (its packing, unrolling, tiles) has the dominant's vector,
    /// though they were measured up to 12x apart: its share of the
    /// statement instances, its register-tile copies, packed references,
    /// stride-1 and strided references along its innermost point loop, its
    /// tile working set against L1 and L2 and the log of its innermost
    /// tile's length. Zeros with one tiled band. Rows never store them:
    /// loading computes them from the kernels' sources
    /// ([`crate::dataset::load_for`]), so the measured files stay as they are.
    Bands,
    /// `bands`, then what packing ([`crate::Config::pack`]) costs and gains
    /// a config, which `PACKED` (a count) does not tell: how many of the
    /// copied references were *not* stride-1 along the innermost point loop
    /// (the copy transposes or gathers them: syrk's `A[j][k]`; copying
    /// gemm's stride-1 `B[k][j]` gains far less), the log2 of the tile's
    /// iterations per copied element (the copy's reuse), and the log of one
    /// plus a thousand times the buffers' bytes per statement instance of
    /// the SCoP (a fresh buffer's first touch is a fixed cost, which small
    /// instances feel: `float` strmm at M=115, N=308 ran its first call about
    /// 1.6x slower packed, its later calls 1.13-1.2x). Zeros for configs that do not
    /// pack. Derived when rows are read, like `bands`.
    Copy,
    /// `copy`, then what the compiler makes of the config's kind of code
    /// ([`crate::compiled`]): the log2 of its hottest loop's floating-point
    /// lanes per cycle by `llvm-mca`, the log2 of that over the untiled
    /// code's, and its share of the best kind's. No source feature sees
    /// whether gcc vectorises a kind; these come from the compiler, not
    /// from [`Kernel::vector`], which stops at `bands`: rows take them from
    /// their directory's `compiled.csv`, `tss predict` from compiling.
    Compiled,
}

const PAPER_NAMES: [&str; 29] = [
    "PS1", "PS2", "PS3", "TS", "LOOP1_0", "LOOP2_0", "LOOP2_L1", "LOOP3_0", "LOOP3_L1", "LOOP3_L2", "L1_RP", "L1_RNP",
    "L1_RI", "L1_WP", "L1_WNP", "L1_WI", "L2_RP", "L2_RNP", "L2_RI", "L2_WP", "L2_WNP", "L2_WI", "L3_RP", "L3_RNP",
    "L3_RI", "L3_WP", "L3_WNP", "L3_WI", "ON",
];
const EXTENDED_EXTRA: [&str; 8] = ["TS1", "TS2", "TS3", "WS_L1", "WS_L2", "TAIL", "LOG_ITERS", "LOG_TILES"];
const REGISTER_EXTRA: [&str; 3] = ["U_L1", "U_L2", "U_COPIES"];
const SCOP_EXTRA: [&str; 7] =
    ["UNTILED", "DEPTH", "LOG_OUTER", "LOG_OUTER_TILES", "LOG_WORK", "ELEM_BYTES", "VEC_TILE"];
const TRAFFIC_EXTRA: [&str; 3] = ["LOG_TRAFFIC_L1", "LOG_TRAFFIC_L2", "LOG_DATA"];
const SINK_EXTRA: [&str; 2] = ["SUNK", "LOG_BELOW"];
const CONFLICT_EXTRA: [&str; 2] = ["CONFLICT_1", "CONFLICT_2"];
const PACK_EXTRA: [&str; 1] = ["PACKED"];
const VECTOR_EXTRA: [&str; 3] = ["V_GROUPS", "V_ROWS", "V_FILL"];
const PARALLEL_EXTRA: [&str; 3] = ["LOG_THREADS", "LOG_PAR_UNITS", "PAR_IDLE"];
const SOURCE_EXTRA: [&str; 4] = ["SRC_UNIT", "SRC_STRIDED", "SRC_REDUCTIONS", "SKEWED"];
const BANDS_EXTRA: [&str; 8] =
    ["R_SHARE", "R_U_COPIES", "R_PACKED", "R_UNIT", "R_STRIDED", "R_WS_L1", "R_WS_L2", "R_LOG_INNER"];
const COPY_EXTRA: [&str; 3] = ["PACK_GATHERED", "PACK_REUSE", "PACK_FIXED"];
const COMPILED_EXTRA: [&str; 3] = ["LOG_LANES", "LANES_GAIN", "LANES_SHARE"];
/// Each set wider than `paper` with the columns it adds, in order.
const WIDER: [(FeatureSet, &[&str]); 13] = [
    (FeatureSet::Extended, &EXTENDED_EXTRA),
    (FeatureSet::Registers, &REGISTER_EXTRA),
    (FeatureSet::Scop, &SCOP_EXTRA),
    (FeatureSet::Traffic, &TRAFFIC_EXTRA),
    (FeatureSet::Sink, &SINK_EXTRA),
    (FeatureSet::Conflict, &CONFLICT_EXTRA),
    (FeatureSet::Pack, &PACK_EXTRA),
    (FeatureSet::Vector, &VECTOR_EXTRA),
    (FeatureSet::Parallel, &PARALLEL_EXTRA),
    (FeatureSet::Source, &SOURCE_EXTRA),
    (FeatureSet::Bands, &BANDS_EXTRA),
    (FeatureSet::Copy, &COPY_EXTRA),
    (FeatureSet::Compiled, &COMPILED_EXTRA),
];

impl FeatureSet {
    pub fn names(self) -> Vec<&'static str> {
        let mut out = PAPER_NAMES.to_vec();
        for (_, extra) in WIDER.iter().filter(|(set, _)| *set <= self) {
            out.extend_from_slice(extra);
        }
        out
    }

    /// Whether the set tells unrolled configs from plain ones.
    pub fn describes_unrolling(self) -> bool {
        self >= FeatureSet::Registers
    }

    /// Whether the set tells packing configs from plain ones: only models
    /// of such a set rank `/pack` candidates.
    pub fn describes_packing(self) -> bool {
        self >= FeatureSet::Pack
    }

    /// Whether the set tells vector register tiles from the plain configs
    /// they rewrite: only models of such a set rank `/vG` candidates.
    pub fn describes_vectors(self) -> bool {
        self >= FeatureSet::Vector
    }

    /// Whether the set ranks the untiled original beside the tiles (older
    /// sets were trained on tiles only, and keep their meaning).
    pub fn describes_untiled(self) -> bool {
        self >= FeatureSet::Registers
    }

    pub fn len(self) -> usize {
        self.names().len()
    }

    pub fn is_empty(self) -> bool {
        false
    }

    /// Whether a model of the set needs the compiler's estimates of each
    /// candidate's kind of code (`llvm-mca`), which no source analysis gives.
    pub fn needs_compiler(self) -> bool {
        self >= FeatureSet::Compiled
    }
}

impl fmt::Display for FeatureSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FeatureSet::Paper => "paper",
            FeatureSet::Extended => "extended",
            FeatureSet::Registers => "registers",
            FeatureSet::Scop => "scop",
            FeatureSet::Traffic => "traffic",
            FeatureSet::Sink => "sink",
            FeatureSet::Conflict => "conflict",
            FeatureSet::Pack => "pack",
            FeatureSet::Vector => "vector",
            FeatureSet::Parallel => "parallel",
            FeatureSet::Source => "source",
            FeatureSet::Bands => "bands",
            FeatureSet::Copy => "copy",
            FeatureSet::Compiled => "compiled",
        })
    }
}

impl FromStr for FeatureSet {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "paper" => Ok(FeatureSet::Paper),
            "extended" => Ok(FeatureSet::Extended),
            "registers" => Ok(FeatureSet::Registers),
            "scop" => Ok(FeatureSet::Scop),
            "traffic" => Ok(FeatureSet::Traffic),
            "sink" => Ok(FeatureSet::Sink),
            "conflict" => Ok(FeatureSet::Conflict),
            "pack" => Ok(FeatureSet::Pack),
            "vector" => Ok(FeatureSet::Vector),
            "parallel" => Ok(FeatureSet::Parallel),
            "source" => Ok(FeatureSet::Source),
            "bands" => Ok(FeatureSet::Bands),
            "copy" => Ok(FeatureSet::Copy),
            "compiled" => Ok(FeatureSet::Compiled),
            _ => Err(format!(
                "unknown feature set '{s}' (expected paper, extended, registers, scop, traffic, sink, conflict, pack, vector, parallel, source, bands, copy or compiled)"
            )),
        }
    }
}

/// Which loop of the dominant band `--parallel` runs on several threads
/// ([`crate::poly::tile::Band::parallel_member`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spread {
    /// The tile loop of this band member.
    Member(usize),
    /// Wavefronts of the tiles of the band's first two members.
    Wavefront,
    /// No loop of the band: an enclosing loop is parallel, or no band is
    /// tiled.
    Outside,
}

/// One of the three feature loops.
#[derive(Clone, Debug, PartialEq)]
pub struct FeatureLoop {
    /// Loop name as `tss tile` prints it (`-` for a padding loop).
    pub name: String,
    /// Band member it scans, `None` for a padding loop.
    pub member: Option<usize>,
}

/// Reads and writes of one statement classified along one loop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Locality {
    pub rp: u32,
    pub rnp: u32,
    pub ri: u32,
    pub wp: u32,
    pub wnp: u32,
    pub wi: u32,
}

impl Locality {
    /// References that move at stride 1, by another stride, and writes that
    /// stay put (reductions) along the loop: what the untiled gate and the
    /// `source` set read of the untiled code's innermost loop.
    fn strides(&self) -> [u32; 3] {
        [self.rp + self.wp, self.rnp + self.wnp, self.wi]
    }
}

/// One problem instance as the features see it: computed once per
/// instance ([`crate::Analysis::shape`]), shared by all its configs.
#[derive(Clone, Debug, PartialEq)]
pub struct Shape {
    /// PS1..PS3: extents of the three feature loops.
    pub ps: [i64; 3],
    /// Extent of every member of the tiled band (empty without one).
    pub members: Vec<i64>,
    /// Statement instances of the whole SCoP (bounding boxes).
    pub work: f64,
    /// The same per statement, in source order (empty when unknown).
    pub statement_work: Vec<f64>,
    /// The machine's vector width, which the innermost tile is measured in.
    pub vector_bits: u32,
    /// Threads the code runs on: 1 serial, one per core in parallel mode.
    pub threads: usize,
    /// Every array's extent per dimension in elements, as the harness
    /// allocates it (for the row pitches of [`conflict`]).
    pub arrays: Vec<(String, Vec<i64>)>,
}

impl Shape {
    /// An instance known only by its feature-loop extents (sets up to
    /// `registers` need no more).
    pub fn of_extents(ps: [i64; 3]) -> Shape {
        let work = ps.iter().map(|&p| p as f64).product();
        Shape {
            ps,
            members: Vec::new(),
            work,
            statement_work: Vec::new(),
            vector_bits: 256,
            threads: 1,
            arrays: Vec::new(),
        }
    }

    /// Bytes between consecutive values of each subscript of `array`, for
    /// elements of `element_bytes`; `None` for an array the shape lacks.
    pub fn pitches(&self, array: &str, element_bytes: u64) -> Option<Vec<u64>> {
        let (_, ext) = self.arrays.iter().find(|(name, _)| name == array)?;
        let mut pitch = element_bytes;
        let mut out = vec![0; ext.len()];
        for (p, e) in out.iter_mut().zip(ext).rev() {
            *p = pitch;
            pitch *= e.max(&1).unsigned_abs();
        }
        Some(out)
    }
}

/// The per-SCoP half of feature extraction (see the module doc).
#[derive(Clone, Debug)]
pub struct Kernel {
    /// Statement the features describe (`S1`), its index in the SCoP and
    /// its source line.
    pub statement: String,
    index: usize,
    pub statement_line: usize,
    pub params: Vec<String>,
    /// Feature loops in tile-loop order (PS1..PS3, LOOP bits).
    pub loops: [FeatureLoop; 3],
    /// Feature loops in intra-tile order: L1 (outer), L2, L3 (innermost).
    pub intra: [FeatureLoop; 3],
    /// LOOP1_0, LOOP2_0, LOOP2_L1, LOOP3_0, LOOP3_L1, LOOP3_L2.
    pub structure: [bool; 6],
    /// Locality along L1, L2, L3.
    pub locality: [Locality; 3],
    /// Locality along the innermost source loop of every deepest statement,
    /// summed: the loops the untiled original runs innermost, which
    /// `locality` (the intra-tile order) does not describe ([`crate::gate`]).
    pub untiled_inner: Locality,
    /// Members of the dominant band whose schedule row mixes iterators
    /// (time-skewed stencils).
    skewed: u32,
    /// Reads that find a value an earlier iteration of the untiled code's
    /// innermost loop wrote ([`crate::poly::deps::inner_recurrences`]).
    recurrences: u32,
    /// Operand count: reads + 1.
    pub on: u32,
    /// ISL set of the feature loops' values over the dominant statement's domain.
    member_set: String,
    /// Per distinct reference, per subscript, per band member: how far the
    /// subscript moves per step of that member (for the tile working set).
    spans: Vec<Vec<Vec<f64>>>,
    /// The array of each of `spans`' references.
    span_arrays: Vec<String>,
    /// Bytes per element (`float` kernels fit twice the tile in a cache).
    pub element_bytes: u64,
    /// The band's intra-tile order, outermost first (every member).
    order: Vec<usize>,
    /// The members in source nesting order: the untiled code's loop order.
    source_order: Vec<usize>,
    /// A tiled band can sink a parallel member ([`crate::Config::sink`]).
    sinks: bool,
    /// Where the dominant band's code runs in parallel under `--parallel`.
    spread: Spread,
    /// The untiled code's outer loop is parallel: it is a member of the
    /// dominant band that carries no dependence.
    untiled_parallel: bool,
    /// Per reference of `spans`, whether configs of this view copy it into
    /// a packed buffer ([`crate::Config::pack`]).
    packed: Vec<bool>,
    /// The kernel as configs of other loop orders and packing see it, keyed
    /// by `(sink, pack)`: only views whose intra-tile order or packed reads
    /// differ from this one's (`sink`, no packing).
    views: Vec<((bool, bool), Kernel)>,
    /// The runner-up band's dominant statement, analysed the same way
    /// ([`FeatureSet::Bands`]); `None` with one tiled band.
    runner: Option<Box<Kernel>>,
}

impl Kernel {
    /// Analyses a tiled SCoP (its statements and the bands `tss tile`
    /// built), for configs of either loop order ([`crate::Config::sink`]),
    /// packed or not ([`crate::Config::pack`]).
    pub fn analyze(scop: &Scop, bands: &[Band]) -> Result<Kernel, PolyError> {
        let kernel = Self::analyze_views(scop, bands, None)?;
        // Advisory (it only keeps an original from the first pick): a SCoP
        // whose analysis fails here still gets its features.
        let ctx = Context::alloc();
        let recurrences = crate::poly::model::Model::build(&ctx, scop)
            .and_then(|m| crate::poly::deps::inner_recurrences(&ctx, &m, scop))
            .unwrap_or(0);
        // Extra columns must not make a SCoP unanalysable: a runner-up whose
        // analysis fails is left out, like a SCoP of one band.
        let main = dominant(scop, bands, true, false, None)?.3;
        let runner = main
            .filter(|main| bands.iter().any(|b| b.tiled && !std::ptr::eq(b, *main)))
            .and_then(|main| Self::analyze_views(scop, bands, Some(main)).ok())
            .map(Box::new);
        Ok(Kernel { recurrences, runner, ..kernel })
    }

    /// The dominant statement of the tiled bands other than `exclude`
    /// (every band: `None`) in both loop orders and packed or not.
    fn analyze_views(scop: &Scop, bands: &[Band], exclude: Option<&Band>) -> Result<Kernel, PolyError> {
        let base = Self::analyze_order(scop, bands, true, false, exclude)?;
        let sinks = bands.iter().any(|b| b.tiled && b.orders.sunk.is_some());
        let packs =
            |sink: bool| bands.iter().any(|b| b.tiled && !crate::codegen::packed_reads(scop, b, sink).is_empty());
        let mut views = Vec::new();
        // Without a band that can sink, both orders are the same: analyse once.
        for (sink, pack) in [(false, false), (true, true), (false, true)] {
            if (!sink && !sinks) || (pack && !packs(sink)) {
                continue;
            }
            let view = Self::analyze_order(scop, bands, sink, pack, exclude)?;
            if view.order != base.order || view.packed != base.packed {
                views.push(((sink, pack), Kernel { sinks, ..view }));
            }
        }
        Ok(Kernel { sinks, views, ..base })
    }

    /// [`Kernel::analyze`] for one view: the intra-tile order of one
    /// [`crate::Config::sink`], and the reads [`crate::Config::pack`] copies.
    fn analyze_order(
        scop: &Scop,
        bands: &[Band],
        sink: bool,
        pack: bool,
        exclude: Option<&Band>,
    ) -> Result<Kernel, PolyError> {
        let (s, rows, order, band) = dominant(scop, bands, sink, pack, exclude)?;
        let stmt = &scop.statements[s];
        let d = rows.len();
        let coeffs: Vec<Vec<i64>> = rows.iter().map(|(c, _)| c.clone()).collect();
        let dirs: Vec<Option<Vec<f64>>> = (0..d).map(|k| direction(&coeffs, k)).collect();

        // Intra-tile order: the innermost three point loops, padded outside.
        let tail: Vec<usize> = order.iter().rev().take(3).rev().copied().collect();
        let mut intra_members: Vec<Option<usize>> = vec![None; 3 - tail.len()];
        intra_members.extend(tail.iter().map(|&m| Some(m)));
        // Tile-loop order: the same loops by source depth.
        let depth = |m: usize| single_iterator(&rows[m]).map_or(d + m, |(j, _)| j);
        let mut by_depth = tail.clone();
        by_depth.sort_by_key(|&m| (depth(m), m));
        let mut source_order: Vec<usize> = (0..d).collect();
        source_order.sort_by_key(|&m| (depth(m), m));
        let mut loop_members: Vec<Option<usize>> = vec![None; 3 - by_depth.len()];
        loop_members.extend(by_depth.iter().map(|&m| Some(m)));

        let name = |m: Option<usize>| FeatureLoop {
            name: m.map_or("-".to_string(), |m| member_name(stmt, &rows[m], m)),
            member: m,
        };
        let locality = intra_members.clone().map_into(|m| match m {
            Some(m) => locality_along(stmt, dirs[m].as_deref()),
            None => locality_along(stmt, None),
        });
        let reads = stmt.accesses.iter().filter(|a| !a.write).count() as u32;
        let untiled_inner = untiled_locality(scop);
        let skewed = rows.iter().filter(|r| single_iterator(r).is_none()).count() as u32;

        let member_set = member_set(scop, stmt, &rows, &loop_members);
        let structure = loop_structure(scop, stmt, &rows, &loop_members)?;
        let (span_arrays, spans): (Vec<String>, Vec<_>) = spans(stmt, &dirs).into_iter().unzip();
        let copied: Vec<String> = match band.filter(|_| pack) {
            Some(b) => crate::codegen::packed_reads(scop, b, sink)
                .into_iter()
                .filter(|&(t, _)| t == s)
                .map(|(_, k)| ref_key(&stmt.accesses[k]))
                .collect(),
            None => Vec::new(),
        };
        let packed = distinct_refs(stmt).map(|a| copied.contains(&ref_key(a))).collect();
        let spread = match band.map(|b| (b.parallel_member, b.wavefront)) {
            Some((Some(m), _)) => Spread::Member(m),
            Some((None, true)) => Spread::Wavefront,
            _ => Spread::Outside,
        };
        let untiled_parallel = spread != Spread::Outside
            && band.is_some_and(|b| source_order.first().is_some_and(|&m| b.coincident.get(m) == Some(&true)));
        Ok(Kernel {
            statement: stmt.name.clone(),
            index: s,
            statement_line: stmt.line,
            params: scop.params.clone(),
            loops: loop_members.map_into(name),
            intra: intra_members.map_into(name),
            structure,
            locality,
            untiled_inner,
            skewed,
            recurrences: 0,
            on: reads + 1,
            member_set,
            spans,
            span_arrays,
            element_bytes: scop.element.bytes(),
            order,
            source_order,
            sinks: false,
            spread,
            untiled_parallel,
            packed,
            views: Vec::new(),
            runner: None,
        })
    }

    /// PS1..PS3 at the given sizes: the number of values each feature loop takes.
    pub fn extents(&self, sizes: &Sizes) -> Result<[i64; 3], PolyError> {
        let ctx = Context::alloc();
        let set = Set::read_from_str(&ctx, &self.member_set)
            .map_err(|e| crate::poly::isl_err("feature-loop set", &self.member_set, e))?
            .intersect_params(Set::read_from_str(&ctx, &sizes.isl_params())?)?;
        let Some(ext) = crate::poly::box_extents(&set, 3)? else {
            return Err(PolyError(format!("statement {} executes no iteration at {sizes}", self.statement)));
        };
        let mut ps = [1i64; 3];
        for (k, (p, e)) in ps.iter_mut().zip(ext).enumerate() {
            let (lo, hi) =
                e.ok_or_else(|| PolyError(format!("loop {} is unbounded at {sizes}", self.loops[k].name)))?;
            *p = hi - lo + 1;
        }
        Ok(ps)
    }

    /// TS1..TS3: the tile size of each feature loop (tile-loop order) from
    /// per-band-member sizes (the last given size repeats, as in `--tile`);
    /// 1 for a padding loop.
    pub fn feature_tiles(&self, tile: &[usize]) -> [f64; 3] {
        self.loops.clone().map(|l| l.member.map_or(1.0, |m| size_at(tile, m).unwrap_or(1) as f64))
    }

    /// The feature vector of one candidate config (`None`: the untiled
    /// original, which is the 1x1x1 tile to the narrower sets), in `set`'s
    /// order; for `compiled`, the `bands` prefix ([`crate::compiled::columns`]
    /// adds the rest).
    pub fn vector(&self, set: FeatureSet, shape: &Shape, config: Option<&Config>, caches: &Caches) -> Vec<f64> {
        let mut v = self.view(config).own_vector(set.min(FeatureSet::Source), shape, config, caches);
        if set >= FeatureSet::Bands {
            v.extend(self.bands_extra(shape, config, caches));
        }
        if set >= FeatureSet::Copy {
            v.extend(self.copy_extra(shape, config));
        }
        v
    }

    /// The view of the kernel that `config`'s loop order and packing see
    /// (the untiled code: this one).
    fn view(&self, config: Option<&Config>) -> &Kernel {
        let key = config.map(|c| (c.sink || !self.sinks, c.pack));
        self.views.iter().find(|(k, _)| Some(*k) == key).map_or(self, |(_, view)| view)
    }

    /// [`Kernel::vector`] up to `source`, of this view's statement.
    fn own_vector(&self, set: FeatureSet, shape: &Shape, config: Option<&Config>, caches: &Caches) -> Vec<f64> {
        let one = Config::cubic(1);
        let (config, untiled) = match config {
            Some(c) => (c, false),
            None => (&one, true),
        };
        let ps = &shape.ps;
        let tile = &config.tiles;
        let ts = self.feature_tiles(tile);
        let real: Vec<f64> = (0..3).filter(|&k| self.loops[k].member.is_some()).map(|k| ts[k]).collect();
        let cubic = if real.windows(2).all(|w| w[0] == w[1]) {
            real.first().copied().unwrap_or(1.0)
        } else {
            real.iter().product::<f64>().powf(1.0 / real.len() as f64).round()
        };
        let mut v = Vec::with_capacity(set.len());
        v.extend(ps.iter().map(|&p| p as f64));
        v.push(cubic);
        v.extend(self.structure.iter().map(|&b| f64::from(u8::from(b))));
        for l in &self.locality {
            v.extend([l.rp, l.rnp, l.ri, l.wp, l.wnp, l.wi].map(f64::from));
        }
        v.push(f64::from(self.on));
        if set >= FeatureSet::Extended {
            v.extend(ts);
            let ws = self.working_set(tile) as f64;
            v.push(ws / caches.l1d as f64);
            v.push(ws / caches.l2 as f64);
            let padded: f64 = (0..3).map(|k| ps[k] as f64 / ((ps[k] as f64 / ts[k]).ceil() * ts[k])).product::<f64>();
            v.push(1.0 - padded);
            v.push(ps.iter().map(|&p| (p as f64).ln()).sum());
            v.push((0..3).map(|k| (ps[k] as f64 / ts[k]).ceil().ln()).sum());
        }
        if set.describes_unrolling() {
            let u = |l: &FeatureLoop| l.member.map_or(1.0, |m| config.unroll(m) as f64);
            let (outer, middle) = (u(&self.intra[0]), u(&self.intra[1]));
            v.extend([outer, middle, outer * middle]);
        }
        if set >= FeatureSet::Scop {
            v.extend(self.scop_extra(shape, (!untiled).then_some(config)));
        }
        if set >= FeatureSet::Traffic {
            v.extend(self.traffic_extra(shape, (!untiled).then_some(config), caches));
        }
        if set >= FeatureSet::Sink {
            let below = shape.work.max(1.0).ln() - shape.members.iter().map(|&e| (e.max(1) as f64).ln()).sum::<f64>();
            v.extend([f64::from(u8::from(self.sinks && !untiled && config.sink)), below.max(0.0)]);
        }
        if set >= FeatureSet::Conflict {
            v.extend(self.conflict_extra(shape, (!untiled).then_some(config), caches));
        }
        if set >= FeatureSet::Pack {
            v.push(self.packed.iter().filter(|&&p| p).count() as f64);
        }
        if set.describes_vectors() {
            v.extend(self.vector_extra(shape, (!untiled).then_some(config)));
        }
        if set >= FeatureSet::Parallel {
            v.extend(self.parallel_extra(shape, (!untiled).then_some(config)));
        }
        if set >= FeatureSet::Source {
            let [unit, other, reductions] = self.untiled_inner.strides();
            v.extend([unit, other, reductions, self.skewed].map(f64::from));
        }
        v
    }

    /// The `bands` set's own features (see [`FeatureSet::Bands`]), read
    /// from the runner-up's view for `config` (the untiled code: the 1x1x1
    /// tile, as the narrower sets see it). Tiles are bounded by the band's
    /// extents, so a tile larger than its loop counts as the whole loop.
    pub fn bands_extra(&self, shape: &Shape, config: Option<&Config>, caches: &Caches) -> [f64; 8] {
        let Some(runner) = &self.runner else { return [0.0; 8] };
        let r = runner.view(config);
        let one = Config::cubic(1);
        let c = config.unwrap_or(&one);
        let extents = r.member_extents(shape);
        let t = |m: usize| (c.tile(m) as f64).min(extents.get(m).copied().unwrap_or(1.0));
        let u = |l: &FeatureLoop| l.member.map_or(1.0, |m| c.unroll(m) as f64);
        let share = match shape.statement_work.get(r.index) {
            Some(w) if shape.work > 0.0 => w / shape.work,
            _ => 0.0,
        };
        let ws = r.spans.iter().map(|subs| footprint(subs, t)).sum::<f64>() * r.element_bytes as f64;
        let [unit, strided, _] = r.locality[2].strides();
        let inner = r.intra[2].member.map_or(1.0, t);
        [
            share,
            u(&r.intra[0]) * u(&r.intra[1]),
            r.packed.iter().filter(|&&p| p).count() as f64,
            f64::from(unit),
            f64::from(strided),
            ws / caches.l1d as f64,
            ws / caches.l2 as f64,
            inner.max(1.0).ln(),
        ]
    }

    /// The `copy` set's own features (see [`FeatureSet::Copy`]) of
    /// `config` (the untiled code copies nothing). Tiles are bounded by the
    /// band's extents; a reference counts as stride-1 where only its last
    /// subscript moves along the innermost point loop, by one.
    pub fn copy_extra(&self, shape: &Shape, config: Option<&Config>) -> [f64; 3] {
        let Some(c) = config.filter(|c| c.pack) else { return [0.0; 3] };
        let view = self.view(Some(c));
        let Some(&inner) = view.order.last() else { return [0.0; 3] };
        let copied: Vec<&Vec<Vec<f64>>> =
            view.spans.iter().zip(&view.packed).filter(|(_, p)| **p).map(|(subs, _)| subs).collect();
        if copied.is_empty() {
            return [0.0; 3];
        }
        let unit = |subs: &Vec<Vec<f64>>| {
            subs.split_last().is_some_and(|(last, rest)| {
                last.get(inner) == Some(&1.0) && rest.iter().all(|s| s.get(inner).is_none_or(|&x| x == 0.0))
            })
        };
        let gathered = copied.iter().filter(|subs| !unit(subs)).count() as f64;
        let extents = view.member_extents(shape);
        let t = |m: usize| (c.tile(m) as f64).min(extents.get(m).copied().unwrap_or(1.0));
        let bytes = self.packed_bytes(shape, c);
        let elements = bytes / view.element_bytes as f64;
        let iterations: f64 = (0..extents.len()).map(t).product();
        let reuse = (iterations / elements.max(1.0)).max(1.0).log2();
        [gathered, reuse, (1.0 + 1e3 * bytes / shape.work.max(1.0)).ln()]
    }

    /// LOG_THREADS, LOG_PAR_UNITS, PAR_IDLE of a config
    /// ([`FeatureSet::Parallel`]). OpenMP's static schedule hands each
    /// thread an equal share of whole units, so 3 tiles on 2 threads leave
    /// a quarter of the thread slots idle, and 1 tile half of them.
    fn parallel_extra(&self, shape: &Shape, config: Option<&Config>) -> [f64; 3] {
        let extents = self.member_extents(shape);
        let tiles = |c: &Config, m: usize| {
            let e = extents.get(m).copied().unwrap_or(1.0);
            (e / (c.tile(m) as f64).clamp(1.0, e)).ceil()
        };
        let units = match (config, self.spread) {
            (None, _) => self.untiled_units(&extents),
            (Some(c), Spread::Member(m)) => tiles(c, m),
            (Some(c), Spread::Wavefront) => tiles(c, 0).min(tiles(c, 1)),
            (Some(_), Spread::Outside) => 0.0,
        };
        let threads = shape.threads.max(1) as f64;
        let idle = if units >= 1.0 { 1.0 - units / (threads * (units / threads).ceil()) } else { 0.0 };
        [threads.ln(), units.ln_1p(), idle]
    }

    /// The units of work the untiled code hands to threads: the iterations
    /// of its outermost loop where that loop is parallel, else one.
    fn untiled_units(&self, extents: &[f64]) -> f64 {
        match self.source_order.first() {
            Some(&m) if self.untiled_parallel => extents[m],
            _ => 1.0,
        }
    }

    /// V_GROUPS, V_ROWS, V_FILL of a config ([`FeatureSet::Vector`]). The
    /// tile's rows are the copies of the point loop outside the reduction
    /// (the outer of the three innermost point loops; one row in a 2-deep
    /// band), each holding one accumulator per vector.
    fn vector_extra(&self, shape: &Shape, config: Option<&Config>) -> [f64; 3] {
        let Some(c) = config.filter(|c| c.vector > 0) else { return [0.0; 3] };
        let groups = c.vector as f64;
        let rows = self.intra[0].member.map_or(1.0, |m| c.unroll(m) as f64);
        let registers = if shape.vector_bits >= 512 { 32.0 } else { 16.0 };
        [groups, rows, (rows * groups + groups) / registers]
    }

    /// Trip count of every band member at this instance (from the feature
    /// loops' extents when the shape lacks the band's).
    fn member_extents(&self, shape: &Shape) -> Vec<f64> {
        (0..self.order.len())
            .map(|m| match shape.members.get(m) {
                Some(&e) => e.max(1) as f64,
                None => self.loops.iter().position(|l| l.member == Some(m)).map_or(1.0, |k| shape.ps[k].max(1) as f64),
            })
            .collect()
    }

    /// The `conflict` set's own features (see [`FeatureSet::Conflict`]):
    /// the worst reference's [`conflict::excess`] over one pass of the
    /// innermost point loop, then of the two innermost (the untiled code's
    /// loops run whole, in source order). References a packing config
    /// copies are read from a contiguous buffer: they conflict with nothing.
    fn conflict_extra(&self, shape: &Shape, config: Option<&Config>, caches: &Caches) -> [f64; 2] {
        let extents = self.member_extents(shape);
        let order = if config.is_some() { &self.order } else { &self.source_order };
        let l1 = conflict::L1::of(caches.l1d, caches.line);
        let worst = |inner: usize| {
            let mut ranges = vec![1.0; extents.len()];
            for &m in order.iter().rev().take(inner) {
                ranges[m] = config.map_or(extents[m], |c| (c.tile(m) as f64).min(extents[m]));
            }
            let each =
                self.spans.iter().zip(&self.span_arrays).zip(&self.packed).map(|((spans, array), &packed)| match shape
                    .pitches(array, self.element_bytes)
                {
                    Some(pitches) if pitches.len() == spans.len() && !packed => {
                        conflict::excess(&conflict::Walk { spans, pitches: &pitches, ranges: &ranges }, l1)
                    }
                    _ => 0.0,
                });
            each.fold(0.0, f64::max)
        };
        [worst(1), worst(2)]
    }

    /// What [`crate::gate::UntiledGate`] knows of the untiled original at
    /// `shape`: its data per statement instance (`LOG_DATA`), the strides
    /// along the loop it runs innermost, its recurrences and whether it
    /// runs on several threads.
    pub fn untiled_traits(&self, shape: &Shape, caches: &Caches) -> UntiledTraits {
        let [unit, other, reductions] = self.untiled_inner.strides();
        let log_data = self.traffic_extra(shape, None, caches)[2];
        let threaded = shape.threads > 1 && self.untiled_units(&self.member_extents(shape)) > 1.0;
        UntiledTraits { log_data, unit, other, reductions, recurrences: self.recurrences, threaded }
    }

    /// The `traffic` set's own features (see [`FeatureSet::Traffic`]).
    fn traffic_extra(&self, shape: &Shape, config: Option<&Config>, caches: &Caches) -> [f64; 3] {
        let d = self.order.len();
        let extents = self.member_extents(shape);
        let tiles: Option<Vec<f64>> = config.map(|c| (0..d).map(|m| c.tile(m) as f64).collect());
        let nest = traffic::nest(&extents, tiles.as_deref(), &self.order);
        let refs =
            traffic::Refs { spans: &self.spans, element_bytes: self.element_bytes as f64, line: caches.line as f64 };
        let per_instance = |bytes: f64| (bytes / extents.iter().product::<f64>()).max(1e-6).ln();
        [
            per_instance(refs.traffic(&nest, &extents, caches.l1d as f64)),
            per_instance(refs.traffic(&nest, &extents, caches.l2 as f64)),
            per_instance(refs.data(&nest, &extents)),
        ]
    }

    /// The `scop` set's own features (see [`FeatureSet::Scop`]).
    fn scop_extra(&self, shape: &Shape, config: Option<&Config>) -> [f64; 7] {
        let feature: Vec<usize> = self.loops.iter().filter_map(|l| l.member).collect();
        let outer: Vec<usize> = (0..shape.members.len()).filter(|m| !feature.contains(m)).collect();
        let ext = |m: usize| shape.members[m].max(1) as f64;
        // Untiled, a member runs whole: one "tile" of its full extent.
        let tile = |m: usize| config.map_or(ext(m), |c| (c.tile(m) as f64).min(ext(m)));
        let log_outer: f64 = outer.iter().map(|&m| ext(m).ln()).sum();
        let log_outer_tiles: f64 = outer.iter().map(|&m| (ext(m) / tile(m)).ceil().ln()).sum();
        let lanes = (f64::from(shape.vector_bits) / (8 * self.element_bytes) as f64).max(1.0);
        let inner = self.intra[2].member.map_or(1.0, |m| if m < shape.members.len() { tile(m) } else { 1.0 });
        [
            f64::from(u8::from(config.is_none())),
            shape.members.len() as f64,
            log_outer,
            log_outer_tiles,
            shape.work.max(1.0).ln(),
            self.element_bytes as f64,
            (inner / lanes).ln_1p(),
        ]
    }

    /// Bytes one tile of the dominant statement touches: per distinct
    /// reference, the product over subscripts of the range they sweep.
    pub fn working_set(&self, tile: &[usize]) -> u64 {
        let t = |m: usize| size_at(tile, m).unwrap_or(1) as f64;
        let elems: f64 = self.spans.iter().map(|subs| footprint(subs, t)).sum();
        (elems * self.element_bytes as f64) as u64
    }

    /// Bytes of the buffers packing config `config` copies a tile's reads
    /// into (0 for a config that packs nothing), each member's tile bounded
    /// by its extent in `shape`.
    pub fn packed_bytes(&self, shape: &Shape, config: &Config) -> f64 {
        if !config.pack {
            return 0.0;
        }
        let view = self.view(Some(config));
        let extents = view.member_extents(shape);
        let t = |m: usize| (config.tile(m) as f64).min(extents.get(m).copied().unwrap_or(1.0));
        let elems: f64 =
            view.spans.iter().zip(&view.packed).filter(|(_, p)| **p).map(|(subs, _)| footprint(subs, t)).sum();
        elems * view.element_bytes as f64
    }

    /// [`candidates`] for this kernel's element size.
    pub fn candidates(&self, ps: &[i64; 3], caches: &Caches) -> Vec<usize> {
        candidates_of(ps, caches, self.element_bytes)
    }
}

/// Elements one reference touches in a tile of `t(m)` iterations per band
/// member `m`: per array dimension, one plus each member's span times its
/// iterations less one, multiplied over the dimensions.
fn footprint(subs: &[Vec<f64>], t: impl Fn(usize) -> f64) -> f64 {
    subs.iter().map(|per| 1.0 + per.iter().enumerate().map(|(m, s)| s * (t(m) - 1.0)).sum::<f64>()).product()
}

/// The paper's candidate cubic tile sizes (eq. 1-2): multiples of the cache
/// line in elements, up to the tile whose square fits L2 and at most half
/// the smallest extent. Always at least one candidate.
/// For `double`; [`Kernel::candidates`] knows the kernel's element.
pub fn candidates(ps: &[i64; 3], caches: &Caches) -> Vec<usize> {
    candidates_of(ps, caches, ELEMENT_BYTES)
}

fn candidates_of(ps: &[i64; 3], caches: &Caches, element_bytes: u64) -> Vec<usize> {
    let cls = (caches.line / element_bytes).max(1) as usize;
    let l2_side = ((caches.l2 / element_bytes) as f64).sqrt().floor() as usize;
    let ps_min = ps.iter().copied().filter(|&p| p > 1).min().unwrap_or(1) as usize;
    let ul = l2_side.min(ps_min / 2);
    (1..=(ul / cls).max(1)).map(|k| k * cls).collect()
}

/// The dominant statement, its band rows, its intra-tile order under
/// [`crate::Config::sink`]` = sink` and [`crate::Config::pack`]` = pack`,
/// and its tiled band (`None`: no tiled band, its own loops).
type Dominant<'a> = (usize, Vec<Row>, Vec<usize>, Option<&'a Band>);

/// Picks the [`Dominant`] statement.
/// With `exclude`, among the statements of the other tiled bands only
/// (the runner-up), and an error where there are none.
fn dominant<'a>(
    scop: &Scop,
    bands: &'a [Band],
    sink: bool,
    pack: bool,
    exclude: Option<&Band>,
) -> Result<Dominant<'a>, PolyError> {
    let key = |s: usize| {
        let st = &scop.statements[s];
        (st.iterators.len(), st.accesses.len(), std::cmp::Reverse(s))
    };
    let tiled = bands
        .iter()
        .filter(|b| b.tiled && !exclude.is_some_and(|e| std::ptr::eq(*b, e)))
        .flat_map(|b| {
            b.rows.iter().filter_map(move |(s, r)| {
                r.as_ref().map(|r| (*s, r.clone(), b.orders.for_config(sink, pack).to_vec(), Some(b)))
            })
        })
        .max_by_key(|(s, _, _, _)| key(*s));
    if let Some(t) = tiled {
        return Ok(t);
    }
    if exclude.is_some() {
        return Err(PolyError("no other tiled band".into()));
    }
    // No tiled band: the deepest statement in its own loop order.
    let s = (0..scop.statements.len())
        .max_by_key(|&s| key(s))
        .ok_or_else(|| PolyError("the SCoP has no statement".into()))?;
    let n = scop.statements[s].iterators.len();
    let rows = (0..n).map(|j| ((0..n).map(|c| i64::from(c == j)).collect(), 0)).collect();
    Ok((s, rows, (0..n).collect(), None))
}

fn member_name(stmt: &Statement, row: &Row, m: usize) -> String {
    match single_iterator(row) {
        Some((j, 1)) if row.1 == 0 => stmt.iterators[j].clone(),
        _ => format!("c{m}"),
    }
}

impl Locality {
    /// Both counts added, reference class by reference class.
    fn plus(self, o: Locality) -> Locality {
        Locality {
            rp: self.rp + o.rp,
            rnp: self.rnp + o.rnp,
            ri: self.ri + o.ri,
            wp: self.wp + o.wp,
            wnp: self.wnp + o.wnp,
            wi: self.wi + o.wi,
        }
    }
}

fn locality_along(stmt: &Statement, dir: Option<&[f64]>) -> Locality {
    let mut l = Locality::default();
    for a in &stmt.accesses {
        let stride = classify(stmt, a, dir);
        let slot = match (a.write, stride) {
            (false, Stride::Unit) => &mut l.rp,
            (false, Stride::Other) => &mut l.rnp,
            (false, Stride::Invariant) => &mut l.ri,
            (true, Stride::Unit) => &mut l.wp,
            (true, Stride::Other) => &mut l.wnp,
            (true, Stride::Invariant) => &mut l.wi,
        };
        *slot += 1;
    }
    l
}

/// [`Kernel::untiled_inner`]: the statements nested deepest do the bulk of
/// the work, and each runs its own innermost loop.
fn untiled_locality(scop: &Scop) -> Locality {
    let depth = scop.statements.iter().map(|s| s.iterators.len()).max().unwrap_or(0);
    let innermost: Vec<f64> = (0..depth).map(|j| if j + 1 == depth { 1.0 } else { 0.0 }).collect();
    let deepest = scop.statements.iter().filter(|s| s.iterators.len() == depth && depth > 0);
    deepest.map(|stmt| locality_along(stmt, Some(&innermost))).fold(Locality::default(), Locality::plus)
}

/// `m0 = 2*i + -1*j + 3`.
fn row_isl(stmt: &Statement, row: &Row) -> String {
    let mut terms: Vec<String> =
        row.0.iter().zip(&stmt.iterators).filter(|(c, _)| **c != 0).map(|(c, it)| format!("{c}*{it}")).collect();
    terms.push(row.1.to_string());
    terms.join(" + ")
}

/// `[P] -> { [tss_m0, .., tss_m{n-1}] -> [tss_mn] : exists (iters : dom and m = rows) }`
/// with `split` dims on the input side (0 gives a set over all three).
fn loops_isl(
    scop: &Scop,
    stmt: &Statement,
    rows: &[Row],
    members: &[Option<usize>],
    split: usize,
    last: usize,
) -> String {
    let m: Vec<String> = (0..=last).map(|k| format!("tss_m{k}")).collect();
    let mut cons: Vec<String> = stmt.constraints.clone();
    for (k, mem) in members.iter().enumerate().take(last + 1) {
        cons.push(match mem {
            Some(mm) => format!("{} = {}", m[k], row_isl(stmt, &rows[*mm])),
            None => format!("{} = 0", m[k]),
        });
    }
    let body = if stmt.iterators.is_empty() {
        cons.join(" and ")
    } else {
        format!("exists ({} : {})", stmt.iterators.join(", "), cons.join(" and "))
    };
    let tuple = if split == 0 {
        format!("[{}]", m.join(", "))
    } else {
        format!("[{}] -> [{}]", m[..split].join(", "), m[split..].join(", "))
    };
    format!("{}{{ {tuple} : {body} }}", scop.param_prefix())
}

/// `[P] -> { [tss_m0, ..] : exists (iters : dom and m = rows) }`: the values
/// of every band member over statement `s`'s domain (its `rows` in a band).
pub(crate) fn band_set(scop: &Scop, s: usize, rows: &[Row]) -> String {
    let members: Vec<Option<usize>> = (0..rows.len()).map(Some).collect();
    loops_isl(scop, &scop.statements[s], rows, &members, 0, rows.len().saturating_sub(1))
}

fn member_set(scop: &Scop, stmt: &Statement, rows: &[Row], members: &[Option<usize>]) -> String {
    loops_isl(scop, stmt, rows, members, 0, 2)
}

/// Table 3's bits: does loop k start at 0, or at an outer feature loop?
/// Read from the lexicographic minimum of loop k given the outer loops.
fn loop_structure(
    scop: &Scop,
    stmt: &Statement,
    rows: &[Row],
    members: &[Option<usize>],
) -> Result<[bool; 6], PolyError> {
    let ctx = Context::alloc();
    let mut starts: Vec<(bool, Vec<bool>)> = Vec::new();
    for k in 0..3 {
        if k == 0 {
            let text = loops_isl(scop, stmt, rows, members, 0, 0);
            let set = Set::read_from_str(&ctx, &text).map_err(|e| crate::poly::isl_err("loop set", &text, e))?;
            let min = set.copy()?.lexmin()?;
            let zero = Set::read_from_str(&ctx, &format!("{}{{ [0] }}", scop.param_prefix()))?
                .intersect_params(min.copy()?.params()?)?;
            starts.push((min.is_equal(&zero)?, Vec::new()));
            continue;
        }
        let text = loops_isl(scop, stmt, rows, members, k, k);
        let map = Map::read_from_str(&ctx, &text).map_err(|e| crate::poly::isl_err("loop map", &text, e))?;
        let min = map.lexmin()?;
        let outer: Vec<String> = (0..k).map(|j| format!("tss_m{j}")).collect();
        let is = |value: &str| -> Result<bool, PolyError> {
            let cand = format!("{}{{ [{}] -> [{value}] }}", scop.param_prefix(), outer.join(", "));
            let cand = Map::read_from_str(&ctx, &cand)?.intersect_domain(min.copy()?.domain()?)?;
            Ok(min.is_equal(&cand)?)
        };
        let zero = is("0")?;
        let eq: Vec<bool> =
            (0..k).map(|j| Ok(!zero && members[j].is_some() && is(&outer[j])?)).collect::<Result<_, PolyError>>()?;
        starts.push((zero, eq));
    }
    Ok([starts[0].0, starts[1].0, starts[1].1[0], starts[2].0, starts[2].1[0], starts[2].1[1]])
}

/// What tells two references of a statement apart: array and subscripts.
fn ref_key(a: &Access) -> String {
    format!("{}{:?}", a.array, a.subscripts.iter().map(|s| s.isl()).collect::<Vec<_>>())
}

/// The first access of each distinct reference of `stmt`, in order.
fn distinct_refs(stmt: &Statement) -> impl Iterator<Item = &Access> {
    let mut seen: Vec<String> = Vec::new();
    stmt.accesses.iter().filter(move |a| {
        let key = ref_key(a);
        let new = !seen.contains(&key);
        if new {
            seen.push(key);
        }
        new
    })
}

/// Per distinct reference of `stmt`: its array and, per subscript, per band
/// member, |step|.
fn spans(stmt: &Statement, dirs: &[Option<Vec<f64>>]) -> Vec<(String, Vec<Vec<f64>>)> {
    let mut out = Vec::new();
    for a in distinct_refs(stmt) {
        let subs = a
            .subscripts
            .iter()
            .map(|sub| {
                dirs.iter()
                    .map(|dir| match (sub.linear(), dir) {
                        (Some(lin), Some(dir)) => {
                            stmt.iterators.iter().zip(dir).map(|(it, x)| lin.coeff(it) as f64 * x).sum::<f64>().abs()
                        }
                        (None, Some(_)) => 1.0,
                        (_, None) => 0.0,
                    })
                    .collect()
            })
            .collect();
        out.push((a.array.clone(), subs));
    }
    out
}

/// `Vec` of exactly three -> array, mapped.
trait MapInto<T> {
    fn map_into<U>(self, f: impl FnMut(T) -> U) -> [U; 3];
}

impl<T> MapInto<T> for Vec<T> {
    fn map_into<U>(self, f: impl FnMut(T) -> U) -> [U; 3] {
        let v: Vec<U> = self.into_iter().map(f).collect();
        v.try_into().unwrap_or_else(|_| unreachable!("feature loops are padded to three"))
    }
}

pub mod conflict;
pub mod traffic;

#[cfg(test)]
mod tests;
