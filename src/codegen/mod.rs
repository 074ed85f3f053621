//! Code generation: tiled schedule -> C text.
//!
//! ISL's AST builder scans the relaxed tiled schedule (see
//! [`crate::poly::tile`]); this module prints the AST as C itself rather than
//! through ISL's printer, because tile loops must be rewritten to start at a
//! multiple of their tile size and step by it, and because pragmas and the
//! statements' original text are placed here.

mod expr;
mod pack;

pub use pack::{packed_reads, packs};
pub use vector::has_vector_tile;
mod scalar;
mod vector;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use isl_rs::{ASTNode, ASTNodeType, Context, Id, IdList, Set};

use crate::config::{Config, Form};
use crate::frontend::Scop;
use crate::poly::PolyError;
use crate::poly::ffi::{self, AstBuild};
use crate::poly::tile::{Dim, DimKind, TiledSchedule, tile_param};
use expr::ExprPrinter;

/// What `tss tile` should produce.
#[derive(Clone, Debug, Default)]
pub struct TileOptions {
    /// Default tile sizes (the `TSS_Tk` macros' defaults) and the
    /// unroll-and-jam factors of the point loops.
    pub config: Config,
    /// Annotate the outermost parallel loop with OpenMP.
    pub parallel: bool,
    /// Run every loop that gets `omp parallel for` or `GCC ivdep` from its
    /// last iteration to its first. Those pragmas claim the iterations are
    /// independent; the random-program tester ([`crate::fuzz`]) checks the
    /// claim by comparing this code's output with the original's.
    pub reverse_marked: bool,
}

impl TileOptions {
    /// Default size of band dimension `k` (0-based): Pluto's 32 when none is given.
    pub fn size(&self, k: usize) -> usize {
        self.config.tile(k)
    }
}

/// Internal ISL name of schedule dimension `p` (unique, mapped back to the
/// C name of [`Dim`] when printing).
fn dim_id(p: usize) -> String {
    format!("tss_d{p}")
}

/// Builds ISL's AST for `tiled` and prints the replacement of the SCoP region.
///
/// Parts (nests that run one after the other) are independent AST problems,
/// so they are generated on separate threads, each with its own ISL context
/// (an ISL context and its objects belong to one thread; the part's schedule
/// crosses over as text). On 3mm this halves the wall time on two cores.
///
/// ISL gives up (an error) once `deadline` passes.
pub fn generate(
    scop: &Scop,
    tiled: &TiledSchedule,
    opts: &TileOptions,
    deadline: std::time::Instant,
) -> Result<String, PolyError> {
    let mut params: Vec<String> = scop.params.clone();
    params.extend((0..tiled.tile_dims).map(tile_param));
    let cons: Vec<String> = (0..tiled.tile_dims).map(|k| format!("{} >= 1", tile_param(k))).collect();
    let context = if cons.is_empty() {
        format!("[{}] -> {{ : }}", params.join(", "))
    } else {
        format!("[{}] -> {{ : {} }}", params.join(", "), cons.join(" and "))
    };
    let texts = tiled
        .parts
        .iter()
        .map(|p| crate::poly::ffi::union_map_text(&p.map).map_err(PolyError))
        .collect::<Result<Vec<_>, _>>()?;
    let printed: Vec<Result<Printed, PolyError>> = std::thread::scope(|s| {
        let handles: Vec<_> = tiled
            .parts
            .iter()
            .zip(&texts)
            .map(|(part, text)| s.spawn(|| print_part(scop, tiled, opts, &context, (text, &part.dims), deadline)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err(PolyError("AST generation panicked".into()))))
            .collect()
    });
    let printed = printed.into_iter().collect::<Result<Vec<_>, _>>()?;
    let mut p = Printer::new(scop, &[], opts);
    p.preamble(tiled);
    // Iterators the function declares itself are assigned, not shadowed.
    // Inline origins may leave a tile loop's origin unnamed.
    let used: BTreeSet<&str> = printed.iter().flat_map(|p| scalar::identifiers(&p.code)).collect();
    let vars: BTreeSet<&String> = printed
        .iter()
        .flat_map(|p| &p.vars)
        .filter(|v| !scop.declared_outside.contains(*v) && used.contains(v.as_str()))
        .collect();
    let _ = writeln!(p.out, "{}{{", p.base);
    if !vars.is_empty() {
        let _ = writeln!(p.out, "{}  int {};", p.base, vars.into_iter().cloned().collect::<Vec<_>>().join(", "));
    }
    for part in &printed {
        p.out.push_str(&part.code);
    }
    let _ = writeln!(p.out, "{}}}", p.base);
    Ok(p.out)
}

/// One part printed as C, with the loop iterators it uses (declared once
/// for all parts).
struct Printed {
    code: String,
    vars: BTreeSet<String>,
}

/// Generates and prints one part in a fresh ISL context.
fn print_part(
    scop: &Scop,
    tiled: &TiledSchedule,
    opts: &TileOptions,
    context: &str,
    (map, dims): (&str, &[Dim]),
    deadline: std::time::Instant,
) -> Result<Printed, PolyError> {
    let ctx = Context::alloc();
    isl_rs::Options::set_on_error(&ctx, 1)?; // errors come back as values, not warnings
    ctx.set_max_operations(crate::isl_max_operations());
    let _watch = ffi::Watchdog::arm(&ctx, deadline);
    ffi::set_ast_options(&ctx);
    let ast = build_ast(&ctx, context, dims, isl_rs::UnionMap::read_from_str(&ctx, map)?)?;
    let mut p = Printer::new(scop, dims, opts);
    p.fresh = &tiled.fresh_reads;
    let bands = &tiled.bands;
    if opts.config.pack {
        let mut next = 0;
        for q in 0..dims.len().saturating_sub(1) {
            if let (DimKind::Tile { .. }, DimKind::Point { band, .. }) = (&dims[q].kind, &dims[q + 1].kind) {
                let packed = pack::plan(&ctx, scop, &bands[*band], (map, dims), q, &mut next)?;
                p.packs.insert(q, packed);
            }
        }
    }
    let mut vars = BTreeSet::new();
    p.loop_vars(&ast, &mut vars)?;
    p.node(&ast, 1)?;
    Ok(Printed { code: p.out, vars })
}

/// ISL's AST for one part of the tiled schedule.
///
/// Tile and sequence dimensions are `atomic`: one loop each, never split
/// (tile loops step by T from a multiple of T, which a split would break).
/// Point dimensions are `separate`: where the statements of a fused band
/// have different ranges inside a tile (gemm's `C *= beta` runs at `k == 0`
/// only), ISL splits the point loop into pieces instead of guarding every
/// statement in the innermost loop. PolyBench-style gemm at `-O3
/// -march=native` (1000x1100x1200, tiles 64) runs 1.5x faster this way,
/// 2mm 1.45x, for 20-40 % more generation time on such bands.
fn build_ast(ctx: &Context, context: &str, dims: &[Dim], map: isl_rs::UnionMap) -> Result<ASTNode, PolyError> {
    let mut ids = IdList::alloc(ctx, dims.len() as i32)?;
    for p in 0..dims.len() {
        ids = ids.add(Id::read_from_str(ctx, &dim_id(p))?)?;
    }
    let space = (0..dims.len()).map(|p| format!("c{p}")).collect::<Vec<_>>().join(", ");
    let options = dims
        .iter()
        .enumerate()
        .map(|(p, d)| {
            let kind = if matches!(d.kind, DimKind::Point { .. }) { "separate" } else { "atomic" };
            format!("[{space}] -> {kind}[{p}]")
        })
        .collect::<Vec<_>>()
        .join("; ");
    let build = AstBuild::from_context(Set::read_from_str(ctx, context)?)?
        .set_iterators(ctx, ids)?
        .set_options(ctx, isl_rs::UnionMap::read_from_str(ctx, &format!("{{ {options} }}"))?)?;
    Ok(build.node_from_schedule_map(ctx, map)?)
}

/// A tile-origin loop as printed.
struct TileLoop {
    var: String,
    /// Its tile-size parameter.
    t: String,
    /// ISL's lower bound.
    init: String,
    /// The first multiple of `t` at or above `init`.
    start: String,
    cond: String,
}

impl TileLoop {
    fn for_header(&self) -> String {
        self.header().for_header(&self.var)
    }

    fn header(&self) -> LoopHeader {
        LoopHeader { init: self.start.clone(), cond: self.cond.clone(), step: self.t.clone() }
    }
}

/// The parts of a C `for` header: `for (v = init; cond; v += step)`.
struct LoopHeader {
    init: String,
    cond: String,
    step: String,
}

impl LoopHeader {
    fn for_header(&self, v: &str) -> String {
        let inc = if self.step == "1" { format!("{v}++") } else { format!("{v} += {}", self.step) };
        format!("for ({v} = {}; {}; {inc})", self.init, self.cond)
    }
}

struct Printer<'a> {
    scop: &'a Scop,
    dims: &'a [Dim],
    opts: &'a TileOptions,
    out: String,
    base: String,
    /// Enclosing unroll-and-jammed loops, outermost first: schedule
    /// dimension and factor.
    jam: Vec<(usize, usize)>,
    /// While printing one copy of jammed statements: each jammed
    /// dimension's offset.
    shift: Vec<(usize, i64)>,
    /// Arrays packed in the body of the innermost tile loop at each schedule
    /// dimension ([`crate::Config::pack`]).
    packs: BTreeMap<usize, Vec<pack::Packed>>,
    /// The packed arrays of the tile being printed: the vector register
    /// tile reads their buffers' layout ([`Printer::vector_tile`]).
    active: Vec<pack::Packed>,
    /// Statement and array pairs whose reads find the initial value
    /// ([`crate::poly::deps::fresh_reads`]): the vector register tile loads
    /// them although the tile writes the array.
    fresh: &'a BTreeSet<(String, String)>,
    /// Tile-origin dimensions of the enclosing index-form loops whose
    /// origins print inline ([`Form::Inline`]).
    inlined: Vec<usize>,
}

/// No fresh reads, for printers of code without vector tiles.
static NO_FRESH_READS: BTreeSet<(String, String)> = BTreeSet::new();

impl<'a> Printer<'a> {
    fn new(scop: &'a Scop, dims: &'a [Dim], opts: &'a TileOptions) -> Self {
        let base = scop.region.indent.clone();
        Printer {
            scop,
            dims,
            opts,
            out: String::new(),
            base,
            jam: Vec::new(),
            shift: Vec::new(),
            packs: BTreeMap::new(),
            active: Vec::new(),
            fresh: &NO_FRESH_READS,
            inlined: Vec::new(),
        }
    }

    fn preamble(&mut self, tiled: &TiledSchedule) {
        let tiled_bands: Vec<String> = tiled
            .bands
            .iter()
            .filter(|b| b.tiled)
            .map(|b| {
                let order: Vec<&str> = b.point_order().iter().map(|&k| b.names[k].as_str()).collect();
                let sunk = if b.sunk { " (the last innermost, below the band's inner loops)" } else { "" };
                format!("[{}] tiled, intra-tile order {}{sunk}", b.names.join(","), order.join(","))
            })
            .collect();
        let what = if tiled_bands.is_empty() { "no tileable band".to_string() } else { tiled_bands.join("; ") };
        let _ = writeln!(self.out, "{}/* tss: {what}. Tile sizes: -DTSS_T1=.. -DTSS_T2=.. */", self.base);
        for k in 0..tiled.tile_dims {
            let size = self.opts.size(k);
            let t = tile_param(k);
            let _ = writeln!(self.out, "#ifndef {t}\n#define {t} {size}\n#endif");
        }
        self.out.push_str(concat!(
            "#ifndef tss_floord\n",
            "#define tss_floord(n, d) (((n) < 0) ? -((-(n) + (d) - 1) / (d)) : (n) / (d))\n",
            "#define tss_ceild(n, d) (((n) < 0) ? -((-(n)) / (d)) : ((n) + (d) - 1) / (d))\n",
            "#define tss_min(x, y) ((x) < (y) ? (x) : (y))\n",
            "#define tss_max(x, y) ((x) > (y) ? (x) : (y))\n",
            "#endif\n"
        ));
        if self.opts.config.vector > 0 {
            self.out.push_str(vector::MACROS);
        }
    }

    fn expr(&self) -> ExprPrinter<'_> {
        ExprPrinter { dims: self.dims, shift: &self.shift, inlined: &self.inlined }
    }

    fn dim_pos(&self, iterator: &str) -> Result<usize, PolyError> {
        iterator
            .strip_prefix("tss_d")
            .and_then(|p| p.parse::<usize>().ok())
            .filter(|&p| p < self.dims.len())
            .ok_or_else(|| PolyError(format!("unknown loop iterator {iterator} in the generated AST")))
    }

    fn dim_of(&self, iterator: &str) -> Result<&Dim, PolyError> {
        Ok(&self.dims[self.dim_pos(iterator)?])
    }

    /// C names of every loop iterator in `node`.
    fn loop_vars(&self, node: &ASTNode, out: &mut BTreeSet<String>) -> Result<(), PolyError> {
        match ffi::ast_node_type(node) {
            ASTNodeType::For => {
                let it = node.for_get_iterator()?.get_id()?.get_name()?.to_string();
                let dim = self.dim_of(&it)?;
                out.insert(dim.name.clone());
                if let Some(idx) = self.index_header(node, dim)? {
                    out.insert(idx.0);
                }
                self.loop_vars(&node.for_get_body()?, out)
            }
            ASTNodeType::If => {
                self.loop_vars(&node.if_get_then_node()?, out)?;
                if node.if_has_else_node()? {
                    self.loop_vars(&node.if_get_else_node()?, out)?;
                }
                Ok(())
            }
            ASTNodeType::Block => {
                let list = node.block_get_children()?;
                for k in 0..list.n_ast_node()? {
                    self.loop_vars(&list.get_at(k)?, out)?;
                }
                Ok(())
            }
            ASTNodeType::Mark => self.loop_vars(&node.mark_get_node()?, out),
            _ => Ok(()),
        }
    }

    fn line(&mut self, depth: usize, text: &str) {
        let _ = writeln!(self.out, "{}{}{text}", self.base, "  ".repeat(depth));
    }

    fn node(&mut self, node: &ASTNode, depth: usize) -> Result<(), PolyError> {
        if !self.jam.is_empty() && self.shift.is_empty() && !self.has_loop(node)? {
            return self.copies(&[node.copy()?], depth);
        }
        match ffi::ast_node_type(node) {
            ASTNodeType::For => self.for_loop(node, depth),
            ASTNodeType::If => {
                let cond = self.expr().print(&node.if_get_cond()?)?;
                self.line(depth, &format!("if ({cond}) {{"));
                self.node(&node.if_get_then_node()?, depth + 1)?;
                if node.if_has_else_node()? {
                    self.line(depth, "} else {");
                    self.node(&node.if_get_else_node()?, depth + 1)?;
                }
                self.line(depth, "}");
                Ok(())
            }
            ASTNodeType::Block => self.block(node, depth),
            ASTNodeType::Mark => self.node(&node.mark_get_node()?, depth),
            ASTNodeType::User => self.user(node, depth),
            ASTNodeType::Error => Err(PolyError("ISL returned an invalid AST node".into())),
        }
    }

    fn for_loop(&mut self, node: &ASTNode, depth: usize) -> Result<(), PolyError> {
        let it = node.for_get_iterator()?.get_id()?.get_name()?.to_string();
        let dim = self.dim_of(&it)?.clone();
        if dim.wavefront && self.opts.parallel && self.wavefront(node, &dim, depth)? {
            return Ok(());
        }
        let e = self.expr();
        let init = e.print(&node.for_get_init()?)?;
        let degenerate = node.for_is_degenerate()?;
        let body = node.for_get_body()?;
        let mut v = &dim.name;
        // A tile loop in index form sets its origin first thing in its body.
        let mut origin = None;
        let index = self.index_header(node, &dim)?;
        let header = if let Some((idx, header, set)) = &index {
            origin = Some(set.as_str());
            v = idx;
            LoopHeader { init: header.init.clone(), cond: header.cond.clone(), step: header.step.clone() }
        } else if matches!(dim.kind, DimKind::Tile { .. }) {
            let t = self.tile_header(node, &dim)?;
            LoopHeader { init: t.start, cond: t.cond, step: t.t }
        } else if degenerate {
            self.line(depth, &format!("{v} = {init};"));
            self.line(depth, "{");
            self.node(&body, depth + 1)?;
            self.line(depth, "}");
            return Ok(());
        } else {
            let cond = node.for_get_cond()?;
            let inclusive = if self.opts.config.form == Form::Inline { e.inclusive_test(&cond, v)? } else { None };
            let cond = match inclusive {
                Some(test) => test,
                None => e.print(&cond)?,
            };
            LoopHeader { init, cond, step: e.print(&node.for_get_inc()?)? }
        };
        // The hoisted-bounds form steps by 1; a strided innermost loop (`j +=
        // 3`, from a condition like `(N - j) % 3 == 0`) keeps ISL's header.
        if dim.ivdep && !degenerate && header.step == "1" && !self.has_loop(&body)? {
            return self.ivdep_loop(node, &dim, depth);
        }
        if self.vector_tile(node, &dim, depth)? {
            return Ok(());
        }
        if self.depends_on_jam(node)? {
            return self.split_loop(node, &it, &dim, depth);
        }
        let u = self.jam_factor(node, &dim)?;
        if u > 1 {
            return self.jammed_loop(node, &it, &dim, u, depth);
        }
        let pragma = if dim.parallel && self.opts.parallel {
            Some(format!("#pragma omp parallel for{}", self.private_clause(&body, v, origin.map(|_| &dim.name))?))
        } else {
            None
        };
        let packed = self.packs.get(&self.dim_pos(&it)?).cloned().unwrap_or_default();
        // Each thread needs its own buffers: allocated inside a parallel loop.
        let inside = pragma.is_some();
        if !packed.is_empty() && !inside {
            self.open_buffers(&packed, depth);
        }
        let close = self.open_loop(depth, v, &header, pragma.as_deref());
        let inline = origin.is_some() && self.opts.config.form == Form::Inline;
        if inline {
            self.inlined.push(self.dim_pos(&it)?);
        }
        let text = self.captured(|p| {
            if packed.is_empty() {
                return p.node(&body, depth + 1);
            }
            if inside {
                p.open_buffers(&packed, depth + 1);
            }
            p.packed_tile(&body, &packed, depth + 1)?;
            if inside {
                p.close_buffers(&packed, depth + 1);
            }
            Ok(())
        });
        if inline {
            self.inlined.pop();
        }
        let text = text?;
        // Inline, the origin is set only where the body still names it
        // (packing copies do): a dead assignment alone changes what gcc
        // proves of the loops (syr2k's reduction at tile 128 then gets a
        // constant trip count again).
        if let Some(set) = origin.filter(|_| !inline || mentions(&text, &dim.name)) {
            self.line(depth + 1, set);
        }
        self.out.push_str(&text);
        self.line(depth, close);
        if !packed.is_empty() && !inside {
            self.close_buffers(&packed, depth);
        }
        Ok(())
    }

    /// `{` and the allocation of each packed array's buffer.
    fn open_buffers(&mut self, packed: &[pack::Packed], depth: usize) {
        self.line(depth, "{");
        for p in packed {
            self.line(depth, &p.alloc());
        }
    }

    fn close_buffers(&mut self, packed: &[pack::Packed], depth: usize) {
        for p in packed {
            self.line(depth, &p.free());
        }
        self.line(depth, "}");
    }

    /// The body of an innermost tile loop that packs: each footprint is
    /// copied in, then the body reads the buffers.
    fn packed_tile(&mut self, body: &ASTNode, packed: &[pack::Packed], depth: usize) -> Result<(), PolyError> {
        self.line(depth, "{");
        for p in packed {
            for l in p.copy() {
                self.line(depth, &l);
            }
        }
        let outer = std::mem::replace(&mut self.active, packed.to_vec());
        let text = self.captured(|p| p.node(body, depth));
        self.active = outer;
        self.out.push_str(&pack::rewrite(&text?, packed));
        self.line(depth, "}");
        Ok(())
    }

    /// Prints `pragma` (if any) and the header of `for (v = init; cond; v +=
    /// step)`, and returns what closes the loop. A marked loop runs backwards
    /// under [`TileOptions::reverse_marked`]: a first, empty pass finds its
    /// last value (its test is a bound, so every value up to it passes).
    fn open_loop(&mut self, depth: usize, v: &str, h: &LoopHeader, pragma: Option<&str>) -> &'static str {
        let Some(pragma) = pragma else {
            self.line(depth, &format!("{} {{", h.for_header(v)));
            return "}";
        };
        if !self.opts.reverse_marked {
            let _ = writeln!(self.out, "{pragma}");
            self.line(depth, &format!("{} {{", h.for_header(v)));
            return "}";
        }
        let (init, step) = (&h.init, &h.step);
        self.line(depth, &format!("{{ int tss_last = ({init}) - ({step});"));
        self.line(depth, &format!("for ({v} = {init}; {}; {v} += {step}) tss_last = {v};", h.cond));
        let _ = writeln!(self.out, "{pragma}");
        self.line(depth, &format!("for ({v} = tss_last; {v} >= ({init}); {v} -= {step}) {{"));
        "} }"
    }

    /// Bounds of a tile-origin loop: it starts at the first multiple of T at
    /// or above ISL's lower bound and steps by T. The tile loop of the band's
    /// innermost member stops at its last origin within ISL's upper bound
    /// `U`, `v <= T * floord(U, T)`, rather than at `U`: the same origins, but
    /// with constant sizes the compiler then bounds the origin by the last
    /// tile and, where `T` divides the extent, folds `min(N, v + T)` to
    /// `v + T`: the innermost loop gets a constant trip count, which it
    /// unrolls into registers. gemm at tile 32 (1536x1280x1792, Zen 3) ran
    /// 1.15x faster, as fast as Pluto's tile-index loops; on the Intel Xeon,
    /// syr2k's reduction `k` at tile 32 ran 1.33 -> 1.05 s (Pluto 1.0 s) and
    /// mvt's (N = 4096, `1024x16:1x8`) 0.034 -> 0.019 s. Not for outer
    /// members, which only add code.
    fn tile_header(&self, node: &ASTNode, dim: &Dim) -> Result<TileLoop, PolyError> {
        let DimKind::Tile { member, innermost } = dim.kind else {
            return Err(PolyError(format!("{} is not a tile loop", dim.name)));
        };
        let e = self.expr();
        let (v, t) = (&dim.name, tile_param(member));
        let init = e.print(&node.for_get_init()?)?;
        let cond = if node.for_is_degenerate()? {
            format!("{v} <= {init}")
        } else {
            let cond = node.for_get_cond()?;
            match e.upper_bound(&cond, v)?.filter(|_| innermost) {
                Some(u) => format!("{v} <= {t} * tss_floord({u}, {t})"),
                None => e.print(&cond)?,
            }
        };
        let start =
            if first_tile_is_zero(&init, &t) { "0".to_string() } else { format!("{t} * tss_ceild({init}, {t})") };
        Ok(TileLoop { var: v.clone(), t, init, start, cond })
    }

    /// The index form of tile loop `node`: its index variable, the header
    /// over tile indices, `for (tss_i_t = lo; tss_i_t <= floord(U, T);
    /// tss_i_t++)`, and the statement that sets the origin first in the
    /// body, `i_t = T * tss_i_t`. The same origins as the stepped form, and
    /// gcc 12 compiles the two differently, neither better on the whole
    /// (Zen 5, serial): PolyBench syrk's `256x256x128:8x1x1/pack/v2` ran
    /// 1.3x faster, syr2k at tile 64 1.14x, sgemm at 128 1.7x slower; over
    /// the corpus's configs 1.008x slower in geometric mean. So it is an
    /// option, not the default.
    ///
    /// `None` for point loops, single-origin loops, loops without a plain
    /// upper bound, wavefront loops (which print their own headers), and
    /// unless the config's [`crate::config::Form`] counts tile indices.
    fn index_header(&self, node: &ASTNode, dim: &Dim) -> Result<Option<(String, LoopHeader, String)>, PolyError> {
        let DimKind::Tile { member, .. } = dim.kind else { return Ok(None) };
        let wavefront = dim.wavefront && self.opts.parallel;
        if !self.opts.config.form.index_loops() || wavefront || node.for_is_degenerate()? {
            return Ok(None);
        }
        let e = self.expr();
        let (v, t) = (&dim.name, tile_param(member));
        let Some(u) = e.upper_bound(&node.for_get_cond()?, v)? else { return Ok(None) };
        let init = e.print(&node.for_get_init()?)?;
        let lo = if first_tile_is_zero(&init, &t) { "0".to_string() } else { format!("tss_ceild({init}, {t})") };
        let idx = format!("tss_{v}");
        let header = LoopHeader { init: lo, cond: format!("{idx} <= tss_floord({u}, {t})"), step: "1".into() };
        let set = format!("{v} = {t} * {idx};");
        Ok(Some((idx, header, set)))
    }

    /// Tiles of a band with no parallel member (time-skewed stencils), in
    /// parallel by wavefronts of its first two tile loops: tile (i, j) runs
    /// in wavefront i + j, after every tile it can depend on (see
    /// [`crate::poly::tile::Band::wavefront`]). A first pass over the two
    /// tile loops finds the wavefronts; then each wavefront scans the outer
    /// tile loop in parallel and keeps the inner tile index that lands on it
    /// when ISL's bounds (and guards between the two loops) admit it.
    ///
    /// Returns `false`, printing nothing, when the AST does not have the two
    /// tile loops directly nested; the band then runs sequentially.
    fn wavefront(&mut self, outer: &ASTNode, dim: &Dim, depth: usize) -> Result<bool, PolyError> {
        let DimKind::Tile { member, .. } = dim.kind else { return Ok(false) };
        let mut guards = Vec::new();
        let mut node = outer.for_get_body()?;
        loop {
            match ffi::ast_node_type(&node) {
                ASTNodeType::Mark => node = node.mark_get_node()?,
                ASTNodeType::Block => {
                    let list = node.block_get_children()?;
                    if list.n_ast_node()? != 1 {
                        return Ok(false);
                    }
                    node = list.get_at(0)?;
                }
                ASTNodeType::If if !node.if_has_else_node()? => {
                    guards.push(format!("({})", self.expr().print(&node.if_get_cond()?)?));
                    node = node.if_get_then_node()?;
                }
                ASTNodeType::For => break,
                _ => return Ok(false),
            }
        }
        let inner_dim = self.dim_of(node.for_get_iterator()?.get_id()?.get_name()?)?.clone();
        if outer.for_is_degenerate()? || !matches!(inner_dim.kind, DimKind::Tile { member: m, .. } if m == member + 1) {
            return Ok(false);
        }
        let o = self.tile_header(outer, dim)?;
        let i = self.tile_header(&node, &inner_dim)?;
        let index = |l: &TileLoop| format!("{} / {}", l.var, l.t);
        self.line(depth, "{ int tss_w, tss_wlo = 1 << 30, tss_whi = -(1 << 30);");
        self.line(depth, &format!("{} {{", o.for_header()));
        if !guards.is_empty() {
            self.line(depth + 1, &format!("if ({}) {{", guards.join(" && ")));
        }
        let d = depth + 1 + usize::from(!guards.is_empty());
        self.line(d, &format!("{} {{", i.for_header()));
        self.line(d + 1, &format!("tss_w = {} + {};", index(&o), index(&i)));
        self.line(d + 1, "tss_wlo = tss_min(tss_wlo, tss_w);");
        self.line(d + 1, "tss_whi = tss_max(tss_whi, tss_w);");
        self.line(d, "}");
        if !guards.is_empty() {
            self.line(depth + 1, "}");
        }
        self.line(depth, "}");
        self.line(depth, "for (tss_w = tss_wlo; tss_w <= tss_whi; tss_w++) {");
        // Dynamic: a wavefront's tiles are a contiguous run of the outer tile
        // loop, which a static split could hand to one thread.
        let private = self.private_clause(&node, &dim.name, None)?;
        let pragma = format!("#pragma omp parallel for schedule(dynamic){private}");
        let close = self.open_loop(depth + 1, &o.var, &o.header(), Some(&pragma));
        self.line(depth + 2, &format!("{} = (tss_w - {}) * {};", i.var, index(&o), i.t));
        guards.push(format!("{} >= ({})", i.var, i.init));
        guards.push(format!("({})", i.cond));
        self.line(depth + 2, &format!("if ({}) {{", guards.join(" && ")));
        self.node(&node.for_get_body()?, depth + 3)?;
        self.line(depth + 2, "}");
        self.line(depth + 1, close);
        self.line(depth, "} }");
        Ok(true)
    }

    /// The children of a block. Inside unroll-and-jammed loops, each run of
    /// loop-free children is printed once per copy (all statements of copy
    /// 0, then of copy 1, ...), so that the statements of one band point
    /// keep their order; loops get their copies inside.
    fn block(&mut self, node: &ASTNode, depth: usize) -> Result<(), PolyError> {
        let list = node.block_get_children()?;
        let mut run = Vec::new();
        for k in 0..list.n_ast_node()? {
            let child = list.get_at(k)?;
            if self.jam.is_empty() || !self.shift.is_empty() {
                self.node(&child, depth)?;
            } else if self.has_loop(&child)? {
                self.copies(&std::mem::take(&mut run), depth)?;
                self.node(&child, depth)?;
            } else {
                run.push(child);
            }
        }
        self.copies(&run, depth)
    }

    /// Loop-free `nodes` once per copy of the enclosing jammed loops. The
    /// innermost jammed loop's offset varies slowest: for gemm unrolled on
    /// `i` and `k`, the updates of one `C[i][j]` are then adjacent, which
    /// GCC turns into one load and one store per copy of `i` (21 GF/s against
    /// 18 the other way round, 4x4 on Zen 3).
    fn copies(&mut self, nodes: &[ASTNode], depth: usize) -> Result<(), PolyError> {
        if nodes.is_empty() {
            return Ok(());
        }
        for offsets in jam_offsets(&self.jam) {
            self.shift = offsets;
            for n in nodes {
                self.node(n, depth)?;
            }
        }
        self.shift.clear();
        Ok(())
    }

    /// The unroll-and-jam factor for point loop `node`, 1 when it is not
    /// unrolled. Jamming moves the copies of the loop's iterations into its
    /// innermost loops; that is legal because the point loops of a band are
    /// permutable (tiling needs the same). It is done only where the loop's
    /// body holds nothing but point loops of the same band and conditions,
    /// with a unit step, and no test reads the loop's iterator. A loop below
    /// whose range depends on it (syrk's `j <= i`, trmm's `k > i`) is split:
    /// the copies share a common range, jammed, and run the rest of their
    /// own ranges before and after it ([`Self::split_loop`],
    /// [`Self::ivdep_loop`]); at most one loop per path splits. The
    /// innermost loop is not unrolled.
    fn jam_factor(&self, node: &ASTNode, dim: &Dim) -> Result<usize, PolyError> {
        let DimKind::Point { member, band } = dim.kind else { return Ok(1) };
        let u = self.opts.config.unroll(member);
        if u <= 1 || !self.shift.is_empty() || node.for_is_degenerate()? {
            return Ok(1);
        }
        let body = node.for_get_body()?;
        let bound =
            matches!(node.for_get_cond()?.get_op_type()?, isl_rs::ASTExprOpType::Le | isl_rs::ASTExprOpType::Lt);
        // A strided loop (`c += 3`, from a schedule like `3j + 3`) would need
        // copies `stride` apart; the copies below are 1 apart.
        let unit_step = self.expr().print(&node.for_get_inc()?)? == "1";
        // The copies of this loop and of the enclosing jammed ones.
        let names: Vec<&str> = self.jammed_names().into_iter().chain([dim.name.as_str()]).collect();
        if !bound || !unit_step || !self.has_loop(&body)? || !self.jammable(&body, &names, band)? {
            return Ok(1);
        }
        Ok(u)
    }

    /// Whether `node` can take the copies of loop `v` of `band` (see
    /// [`Self::jam_factor`]).
    fn jammable(&self, node: &ASTNode, v: &[&str], band: usize) -> Result<bool, PolyError> {
        let e = self.expr();
        match ffi::ast_node_type(node) {
            ASTNodeType::For => {
                let inner = self.dim_of(node.for_get_iterator()?.get_id()?.get_name()?)?;
                let same_band = matches!(inner.kind, DimKind::Point { band: b, .. } if b == band);
                let body = node.for_get_body()?;
                let inc = e.print(&node.for_get_inc()?)?;
                let depends = self.bounds_read(node, v)? || mentions_any(&inc, v);
                // A unit-step loop with a plain upper bound splits its range
                // (`split_loop`, or `ivdep_loop` for the vector loop).
                let test = node.for_get_cond()?.get_op_type()?;
                let splits = !node.for_is_degenerate()?
                    && inc == "1"
                    && matches!(test, isl_rs::ASTExprOpType::Le | isl_rs::ASTExprOpType::Lt);
                // One split per path: a split loop's copies each hold its
                // whole body, and splits nested in them multiply the code
                // (seidel-2d's skewed band at 8 copies: 200 KB that gcc
                // could not compile in 24 GiB).
                if depends && (!splits || self.loops_read(&body, v)?) {
                    return Ok(false);
                }
                Ok(same_band && self.jammable(&body, v, band)?)
            }
            ASTNodeType::If => {
                if mentions_any(&e.print(&node.if_get_cond()?)?, v) {
                    return Ok(false);
                }
                let then = self.jammable(&node.if_get_then_node()?, v, band)?;
                Ok(then && (!node.if_has_else_node()? || self.jammable(&node.if_get_else_node()?, v, band)?))
            }
            ASTNodeType::Block => {
                let list = node.block_get_children()?;
                let n = list.n_ast_node()?;
                for k in 0..n {
                    let child = list.get_at(k)?;
                    // A split range must be all there is at its level: a
                    // sibling's place in the split member may depend on the
                    // copy (trisolv's `x[i] /= L[i][i]` sits at `c = i`),
                    // and all copies of it would run after every copy's range.
                    if !self.jammable(&child, v, band)? || (n > 1 && self.loops_read(&child, v)?) {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            ASTNodeType::Mark => self.jammable(&node.mark_get_node()?, v, band),
            ASTNodeType::User => Ok(true),
            ASTNodeType::Error => Ok(false),
        }
    }

    /// `for (i = lb; i <= ub - (u-1); i += u)` over `u` jammed copies of the
    /// body, then the remainder `for (; i <= ub; i++)` over the body once:
    /// no guard inside the innermost loop.
    fn jammed_loop(&mut self, node: &ASTNode, it: &str, dim: &Dim, u: usize, depth: usize) -> Result<(), PolyError> {
        let e = self.expr();
        let cond = node.for_get_cond()?;
        let range = (e.print(&node.for_get_init()?)?, test_op(&cond)?, e.print(&cond.get_op_arg(1)?)?);
        self.jammed_range(&node.for_get_body()?, it, dim, u, range, depth)
    }

    /// [`Self::jammed_loop`] over the range `(init, op, ub)`.
    fn jammed_range(
        &mut self,
        body: &ASTNode,
        it: &str,
        dim: &Dim,
        u: usize,
        (init, op, ub): (String, &str, String),
        depth: usize,
    ) -> Result<(), PolyError> {
        let v = &dim.name;
        self.line(depth, &format!("for ({v} = {init}; {v} {op} {ub} - {}; {v} += {u}) {{", u - 1));
        self.jam.push((self.dim_pos(it)?, u));
        let printed = self.node(body, depth + 1);
        self.jam.pop();
        printed?;
        self.line(depth, "}");
        self.line(depth, &format!("for (; {v} {op} {ub}; {v}++) {{"));
        self.node(body, depth + 1)?;
        self.line(depth, "}");
        Ok(())
    }

    /// Iterators of the enclosing jammed loops, outermost first.
    fn jammed_names(&self) -> Vec<&str> {
        self.jam.iter().map(|&(p, _)| self.dims[p].name.as_str()).collect()
    }

    /// Whether the lower bound or the test of loop `node` reads one of `names`.
    fn bounds_read(&self, node: &ASTNode, names: &[&str]) -> Result<bool, PolyError> {
        let e = self.expr();
        Ok(mentions_any(&e.print(&node.for_get_init()?)?, names)
            || mentions_any(&e.print(&node.for_get_cond()?)?, names))
    }

    /// Whether the bounds of some loop in `node` read one of `names`.
    fn loops_read(&self, node: &ASTNode, names: &[&str]) -> Result<bool, PolyError> {
        Ok(match ffi::ast_node_type(node) {
            ASTNodeType::For => self.bounds_read(node, names)? || self.loops_read(&node.for_get_body()?, names)?,
            ASTNodeType::If => {
                let other = node.if_has_else_node()? && self.loops_read(&node.if_get_else_node()?, names)?;
                other || self.loops_read(&node.if_get_then_node()?, names)?
            }
            ASTNodeType::Block => {
                let list = node.block_get_children()?;
                let mut reads = false;
                for k in 0..list.n_ast_node()? {
                    reads |= self.loops_read(&list.get_at(k)?, names)?;
                }
                reads
            }
            ASTNodeType::Mark => self.loops_read(&node.mark_get_node()?, names)?,
            ASTNodeType::User | ASTNodeType::Error => false,
        })
    }

    /// Whether the bounds of `node`, a loop inside jammed loops (and not
    /// inside one copy of them), read a jammed iterator.
    fn depends_on_jam(&self, node: &ASTNode) -> Result<bool, PolyError> {
        if self.jam.is_empty() || !self.shift.is_empty() {
            return Ok(false);
        }
        self.bounds_read(node, &self.jammed_names())
    }

    /// A point loop whose range depends on enclosing jammed loops (trmm's
    /// `k > i` under a jammed `i`): the copies' common range (largest lower
    /// bound to smallest upper bound) runs with the copies jammed, unrolled
    /// itself when configured, and each copy runs the rest of its own range
    /// alone, one loop before the common range and one after it. Legal for
    /// the reason the vector loop's split is ([`Self::ivdep_loop`]): the
    /// band is permutable, so each part runs its instances in an order
    /// increasing in every member, and the parts follow one another in
    /// this loop's order.
    fn split_loop(&mut self, node: &ASTNode, it: &str, dim: &Dim, depth: usize) -> Result<(), PolyError> {
        let cond = node.for_get_cond()?;
        let op = test_op(&cond)?;
        let (init, bound, body) = (node.for_get_init()?, cond.get_op_arg(1)?, node.for_get_body()?);
        let copies = self.own_ranges(&init, &bound, &body, depth + 2)?;
        let v = &dim.name;
        let u = self.jam_factor(node, dim)?;
        self.around_common_range(&copies, v, op, depth, |p, lo, hi| {
            if u > 1 {
                p.jammed_range(&body, it, dim, u, (lo.to_string(), op, hi.to_string()), depth + 1)
            } else {
                p.line(depth + 1, &format!("for ({v} = {lo}; {v} {op} {hi}; {v}++) {{"));
                p.node(&body, depth + 2)?;
                p.line(depth + 1, "}");
                Ok(())
            }
        })
    }

    /// The frame of a loop over `v` split around the common range of the
    /// jammed `copies` (`tss_lb_v`..`tss_ub_v`): each copy's iterations
    /// below it, `middle` (given the range's bounds) at `depth + 1`, and
    /// each copy's iterations above it.
    fn around_common_range(
        &mut self,
        copies: &[CopyRange],
        v: &str,
        op: &str,
        depth: usize,
        middle: impl FnOnce(&mut Self, &str, &str) -> Result<(), PolyError>,
    ) -> Result<(), PolyError> {
        let (lo, hi) = (format!("tss_lb_{v}"), format!("tss_ub_{v}"));
        let (lb, ub) = common_range(copies.iter().map(|(_, own)| own));
        self.line(depth, &format!("{{ int {lo} = {lb}, {hi} = {ub};"));
        let under = below(&lo, op);
        self.copy_loops(copies, v, op, |l| l.to_string(), |u| format!("tss_min({u}, {under})"), depth + 1);
        middle(self, &lo, &hi)?;
        let over = above(&lo, &hi, op);
        self.copy_loops(copies, v, op, |l| format!("tss_max({l}, {over})"), |u| u.to_string(), depth + 1);
        self.line(depth, "}");
        Ok(())
    }

    /// Innermost vectorisable loop. GCC ignores `ivdep` when the loop test
    /// is not a plain comparison (a `tss_min` conditional is not), so the
    /// bounds are hoisted into `tss_lb`/`tss_ub` first, as Pluto does with
    /// `lbv`/`ubv`.
    fn ivdep_loop(&mut self, node: &ASTNode, dim: &Dim, depth: usize) -> Result<(), PolyError> {
        let e = self.expr();
        let cond = node.for_get_cond()?;
        let mut op = test_op(&cond)?;
        let (init, bound) = (node.for_get_init()?, cond.get_op_arg(1)?);
        let (mut lb, mut ub) = (e.print(&init)?, e.print(&bound)?);
        let v = &dim.name;
        let body = node.for_get_body()?;
        // Each copy's own range, when they differ; the jammed loop runs
        // where all overlap.
        let copies =
            if self.depends_on_jam(node)? { self.own_ranges(&init, &bound, &body, depth + 1)? } else { Vec::new() };
        if !copies.is_empty() {
            (lb, ub) = common_range(copies.iter().map(|(_, own)| own));
        } else if self.opts.config.form == Form::Inline {
            let e = self.expr();
            (ub, op) = if op == "<" { (e.minus_one(&bound)?, "<=") } else { (e.grouped(&bound)?, op) };
        }
        let text = self.captured(|p| p.node(&body, depth + 1))?;
        let (text, hoisted, fallback) =
            if self.jam.is_empty() { (text, None, None) } else { self.register_locals(text, &body, v, depth)? };
        self.line(depth, &format!("{{ int tss_lb = {lb}, tss_ub = {ub};"));
        // Before the common range, each copy's iterations below it.
        let under = below("tss_lb", op);
        self.copy_loops(&copies, v, op, |l| l.to_string(), |u| format!("tss_min({u}, {under})"), depth);
        if let Some(h) = &hoisted {
            // Only when the loop runs: the original reads them only then.
            self.line(depth, &format!("if (tss_lb {op} tss_ub) {{"));
            for (local, r) in &h.locals {
                self.line(depth, &format!("const __typeof__({r}) {local} = {r};"));
            }
        }
        let over = above("tss_lb", "tss_ub", op);
        if let Some((guard, plain)) = fallback {
            // The locals only where no other reference meets them.
            self.line(depth, &format!("if ({guard}) {{"));
            self.vector_header(v, op, depth);
            self.out.push_str(hoisted.as_ref().map_or(&text, |h| &h.body));
            self.line(depth, "} } else {");
            self.vector_header(v, op, depth);
            self.out.push_str(&plain);
            self.line(depth, if hoisted.is_some() { "} } }" } else { "} }" });
            self.copy_loops(&copies, v, op, |l| format!("tss_max({l}, {over})"), |u| u.to_string(), depth);
            self.line(depth, "}");
            return Ok(());
        }
        self.vector_header(v, op, depth);
        self.out.push_str(hoisted.as_ref().map_or(&text, |h| &h.body));
        if copies.is_empty() {
            self.line(depth, if hoisted.is_some() { "} } }" } else { "} }" });
            return Ok(());
        }
        self.line(depth, if hoisted.is_some() { "} }" } else { "}" });
        // After it, each copy's iterations above it (or, where the copies
        // share no iteration, all those not run before).
        self.copy_loops(&copies, v, op, |l| format!("tss_max({l}, {over})"), |u| u.to_string(), depth);
        self.line(depth, "}");
        Ok(())
    }

    /// For each copy of the enclosing jammed loops: `body` printed as that
    /// copy alone, and the copy's own bounds `init` and `bound` of the loop
    /// around it. The jam is restored afterwards, also on error.
    fn own_ranges(
        &mut self,
        init: &isl_rs::ASTExpr,
        bound: &isl_rs::ASTExpr,
        body: &ASTNode,
        depth: usize,
    ) -> Result<Vec<CopyRange>, PolyError> {
        let jam = std::mem::take(&mut self.jam);
        let one = |p: &mut Self, offsets| -> Result<_, PolyError> {
            p.shift = offsets;
            let own = (p.expr().print(init)?, p.expr().print(bound)?);
            Ok((p.captured(|p| p.node(body, depth))?, own))
        };
        let copies = jam_offsets(&jam).into_iter().map(|o| one(self, o)).collect();
        self.shift.clear();
        self.jam = jam;
        copies
    }

    /// `#pragma GCC ivdep` and the header of the vector loop over
    /// `tss_lb`..`tss_ub`.
    fn vector_header(&mut self, v: &str, op: &str, depth: usize) {
        let _ = writeln!(self.out, "#pragma GCC ivdep");
        if self.opts.reverse_marked {
            let last = if op == "<" { "tss_ub - 1" } else { "tss_ub" };
            self.line(depth, &format!("for ({v} = {last}; {v} >= tss_lb; {v}--) {{"));
        } else {
            self.line(depth, &format!("for ({v} = tss_lb; {v} {op} tss_ub; {v}++) {{"));
        }
    }

    /// One loop over `v` per copy of jammed loops, each over the part of the
    /// copy's own range `(lb, ub)` that `start(lb)` and `end(ub)` give, with
    /// the copy's body text.
    fn copy_loops(
        &mut self,
        copies: &[CopyRange],
        v: &str,
        op: &str,
        start: impl Fn(&str) -> String,
        end: impl Fn(&str) -> String,
        depth: usize,
    ) {
        for (text, (lb, ub)) in copies {
            self.line(depth, &format!("for ({v} = {}; {v} {op} {}; {v}++) {{", start(lb), end(ub)));
            self.out.push_str(text);
            self.line(depth, "}");
        }
    }

    /// In a register tile, the innermost loop's written elements and its
    /// invariant reads go to locals (see `scalar`): the body text to print,
    /// the reads to hoist before the loop and, when the written elements
    /// stay in locals only under a guard, the guard and the body to run
    /// otherwise (with the same reads hoisted).
    fn register_locals(&self, text: String, body: &ASTNode, v: &str, depth: usize) -> Result<RegisterTile, PolyError> {
        let written = self.written_names(body)?;
        let hoist = |t: &str| scalar::hoist_invariant_reads(t, v, &written);
        let Some(l) = scalar::keep_written_in_locals(&text, &written, v) else {
            let hoisted = hoist(&text);
            return Ok((text, hoisted, None));
        };
        let pad = format!("{}{}", self.base, "  ".repeat(depth + 1));
        let lines = |v: &[String]| v.iter().map(|l| format!("{pad}{l}\n")).collect::<String>();
        let fast = format!("{}{}{}", lines(&l.decls), l.body, lines(&l.stores));
        let hoisted = hoist(&fast);
        let Some(guard) = l.guard else { return Ok((fast, hoisted, None)) };
        let plain = hoist(&text);
        match (&hoisted, plain) {
            (None, None) => Ok((fast, None, Some((guard, text)))),
            (Some(h), Some(p)) if h.locals == p.locals => Ok((fast, hoisted, Some((guard, p.body)))),
            // Both versions must read the same hoisted values; else no locals.
            (_, plain) => Ok((text, plain, None)),
        }
    }

    /// What `print` appends to the output, taken out of it.
    fn captured(&mut self, print: impl FnOnce(&mut Self) -> Result<(), PolyError>) -> Result<String, PolyError> {
        let before = self.out.len();
        let r = print(self);
        let text = self.out.split_off(before);
        r.map(|()| text)
    }

    /// Arrays and scalars written by the statements under `node`.
    fn written_names(&self, node: &ASTNode) -> Result<BTreeSet<String>, PolyError> {
        let mut names = BTreeSet::new();
        let mut stack = vec![node.copy()?];
        while let Some(n) = stack.pop() {
            match ffi::ast_node_type(&n) {
                ASTNodeType::For => stack.push(n.for_get_body()?),
                ASTNodeType::If => {
                    stack.push(n.if_get_then_node()?);
                    if n.if_has_else_node()? {
                        stack.push(n.if_get_else_node()?);
                    }
                }
                ASTNodeType::Block => {
                    let list = n.block_get_children()?;
                    for k in 0..list.n_ast_node()? {
                        stack.push(list.get_at(k)?);
                    }
                }
                ASTNodeType::Mark => stack.push(n.mark_get_node()?),
                ASTNodeType::User => {
                    let name = n.user_get_expr()?.get_op_arg(0)?.get_id()?.get_name()?.to_string();
                    let stmt = self.scop.statements.iter().find(|s| s.name == name);
                    names.extend(
                        stmt.iter().flat_map(|s| s.accesses.iter().filter(|a| a.write).map(|a| a.array.clone())),
                    );
                }
                ASTNodeType::Error => return Err(PolyError("ISL returned an erroneous AST node".into())),
            }
        }
        Ok(names)
    }

    /// ` private(..)` listing the loop iterators of `body` other than the
    /// parallel loop's own `v` (OpenMP privatises only that one), and
    /// `set`, an origin the loop assigns in its body, or nothing.
    fn private_clause(&self, body: &ASTNode, v: &str, set: Option<&String>) -> Result<String, PolyError> {
        let mut vars = BTreeSet::new();
        self.loop_vars(body, &mut vars)?;
        vars.extend(set.cloned());
        vars.remove(v);
        Ok(if vars.is_empty() {
            String::new()
        } else {
            format!(" private({})", vars.into_iter().collect::<Vec<_>>().join(", "))
        })
    }

    fn has_loop(&self, node: &ASTNode) -> Result<bool, PolyError> {
        let mut vars = BTreeSet::new();
        self.loop_vars(node, &mut vars)?;
        Ok(!vars.is_empty())
    }

    /// A statement instance: the original text with iterators substituted.
    fn user(&mut self, node: &ASTNode, depth: usize) -> Result<(), PolyError> {
        let call = node.user_get_expr()?;
        let name = call.get_op_arg(0)?.get_id()?.get_name()?.to_string();
        let stmt = self
            .scop
            .statements
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| PolyError(format!("unknown statement {name} in the generated AST")))?;
        let mut args = Vec::new();
        for k in 0..stmt.iterators.len() {
            let a = self.expr().print(&call.get_op_arg(k as i32 + 1)?)?;
            let simple = a.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            args.push(if simple { a } else { format!("({a})") });
        }
        let mut text = String::new();
        let mut last = 0;
        for &(a, b, idx) in &stmt.iter_uses {
            text.push_str(&stmt.text[last..a]);
            text.push_str(&args[idx]);
            last = b;
        }
        text.push_str(&stmt.text[last..]);
        // Re-indent continuation lines of multi-line statements.
        let text = text.replace('\n', &format!("\n{}{}", self.base, "  ".repeat(depth + 1)));
        self.line(depth, &text);
        Ok(())
    }
}

/// Every combination of offsets of the jammed loops `jam` (outermost
/// first); the last loop's offset varies slowest.
fn jam_offsets(jam: &[(usize, usize)]) -> Vec<Vec<(usize, i64)>> {
    let mut out = vec![Vec::new()];
    for &(p, u) in jam {
        out = (0..u as i64)
            .flat_map(|o| {
                out.iter().map(move |c| {
                    let mut c = c.clone();
                    c.push((p, o));
                    c
                })
            })
            .collect();
    }
    out
}

/// A register tile's innermost body ([`Printer::register_locals`]): text,
/// hoisted reads, and the guard and fallback text of guarded locals.
type RegisterTile = (String, Option<scalar::Hoisted>, Option<(String, String)>);

/// One copy of jammed loops around a split loop: its body text and its own
/// lower and upper bounds of the loop.
type CopyRange = (String, (String, String));

/// Whether a tile loop whose lower bound ISL printed as `init` starts at
/// origin 0: ISL's bound for a member starting at 0 is `-T + 1`, whose
/// rounding up to a multiple of `T` is 0.
fn first_tile_is_zero(init: &str, t: &str) -> bool {
    init == "0" || init == format!("-{t} + 1")
}

/// The comparison of a loop test `v <= ub` or `v < ub`.
fn test_op(cond: &isl_rs::ASTExpr) -> Result<&'static str, PolyError> {
    match cond.get_op_type()? {
        isl_rs::ASTExprOpType::Le => Ok("<="),
        isl_rs::ASTExprOpType::Lt => Ok("<"),
        _ => Err(PolyError("unexpected loop test".into())),
    }
}

/// The range every copy runs: the largest of their lower bounds to the
/// smallest of their upper bounds (each distinct bound once).
fn common_range<'s>(owns: impl Iterator<Item = &'s (String, String)>) -> (String, String) {
    let (lbs, ubs): (BTreeSet<&String>, BTreeSet<&String>) = owns.map(|(l, u)| (l, u)).unzip();
    let fold = |f: &str, v: BTreeSet<&String>| {
        v.iter().skip(1).fold(v.first().map_or_else(String::new, |s| s.to_string()), |a, b| format!("{f}({a}, {b})"))
    };
    (fold("tss_max", lbs), fold("tss_min", ubs))
}

/// The last value below a common range starting at `lb`, as a bound for `op`.
fn below(lb: &str, op: &str) -> String {
    if op == "<=" { format!("{lb} - 1") } else { lb.to_string() }
}

/// The first value above the common range `lb`..`ub` (or `lb` when it is
/// empty), as a lower bound.
fn above(lb: &str, ub: &str, op: &str) -> String {
    if op == "<=" { format!("tss_max({lb}, {ub} + 1)") } else { format!("tss_max({lb}, {ub})") }
}

/// Whether C expression `text` reads one of the identifiers `names`.
fn mentions_any(text: &str, names: &[&str]) -> bool {
    names.iter().any(|v| mentions(text, v))
}

/// Whether C expression `text` reads identifier `v`.
fn mentions(text: &str, v: &str) -> bool {
    scalar::identifiers(text).any(|w| w == v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jam_offsets_vary_the_innermost_loop_slowest() {
        let o = jam_offsets(&[(3, 2), (5, 2)]);
        assert_eq!(o, vec![vec![(3, 0), (5, 0)], vec![(3, 1), (5, 0)], vec![(3, 0), (5, 1)], vec![(3, 1), (5, 1)]]);
        assert_eq!(jam_offsets(&[]), vec![Vec::<(usize, i64)>::new()]);
    }

    #[test]
    fn mentions_whole_identifiers_only() {
        assert!(mentions("tss_min(i, N - 1)", "i"));
        assert!(!mentions("i_t + TSS_T1", "i"));
        assert!(!mentions("ii + 1", "i"));
    }
}
