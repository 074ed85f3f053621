//! Packing: each tile copies what it reads of an operand into a contiguous
//! buffer laid out for the vector loop.
//!
//! syrk's `C[i][j] += A[i][k] * A[j][k]` runs `j` innermost (stride 1 on
//! `C`), so `A[j][k]` steps a whole row per iteration and GCC gathers it.
//! With [`crate::Config::pack`], the innermost tile loop of the band first
//! copies the tile's footprint of `A` into `tss_p0[k - lo_k][j - lo_j]` and
//! the tile's statements read the buffer instead: stride 1 in `j`, and the
//! copy is paid once per tile for reuse across a whole tile dimension
//! (BLIS and Polly's matmul path pack the same way). An operand that is
//! stride 1 already, gemm's `B[k][j]`, is copied as it is: the tile's panel
//! becomes contiguous, so it no longer spans a page and a cache set per row.
//! On Zen 3 that took gemm (1536x1280x1792) at 64x256x128:4x1x4 from 20.1
//! to 25.1 GF/s, and 256x256x64:4x1x4 packed ran at 27.1, past Polly's 22.9
//! (`scripts/peers.py`, one run).
//!
//! An array is packed when it is read-only in the SCoP (the copy then never
//! goes stale), every read of it in the band has subscripts that are one band
//! member plus a constant, or a constant, the vector loop's member is in a
//! subscript, and some band member is in none (its iterations reuse the
//! copy; gemv's `A[i][j]` would be copied to be read once). The footprint's box comes from ISL: the
//! image of the tile's statement instances under the reads, with the
//! enclosing loops fixed, so the copy reads nothing the tile does not (no
//! read out of the array's bounds). The buffer's extent per dimension is the
//! member's tile size plus the spread of the constants, a compile-time
//! constant since tile sizes are macros.
//!
//! Replacing a read by its buffer element is optional per reference: the
//! array itself is unchanged, so a reference left as it was still reads the
//! right value. Exactness is therefore only a matter of the footprint
//! covering every rewritten reference, which ISL's image guarantees.

use std::collections::BTreeMap;

use isl_rs::{Context, Set, UnionMap, UnionSet, Val};

use super::expr::ExprPrinter;
use super::scalar;
use crate::frontend::Scop;
use crate::poly::PolyError;
use crate::poly::ffi::AstBuild;
use crate::poly::tile::{Band, Dim, DimKind, single_iterator, tile_param};

/// Pieces beyond which a footprint bound is not worth printing.
const MAX_PIECES: i32 = 6;

/// The box a group's reads touch in one tile, as C text over the loops
/// enclosing the tile's body and the parameters.
#[derive(Clone, Debug)]
struct Footprint {
    /// Lowest and highest index per array dimension.
    lo: Vec<String>,
    hi: Vec<String>,
    /// When some tiles read none of the group: the condition that one does.
    guard: Option<String>,
}

/// One packed array of a band's tiles.
#[derive(Clone, Debug)]
pub struct Packed {
    pub array: String,
    /// Per dimension, the point loop the packed references' subscript is
    /// (plus a constant), or `None` for a constant: which references of the
    /// array in the printed code belong to the group.
    key: Vec<Option<String>>,
    /// `tss_p0`, `tss_p1`, ...
    pub buffer: String,
    /// Array dimensions in buffer order: the vector loop's last.
    perm: Vec<usize>,
    /// Compile-time extent bound per array dimension (C text).
    widths: Vec<String>,
    /// The box one tile reads.
    footprint: Footprint,
}

/// How one subscript of a read moves within a tile.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Sub {
    /// Band member `m` plus a constant.
    Member(usize, i64),
    Constant(i64),
}

/// Rows of the source that a transposing copy reads together (one cache
/// line of doubles per row and buffer line).
const PACK_BLOCK: usize = 8;

/// A transposing copy of more rows than this is blocked ([`Packed::copy`]).
const PACK_TALL: usize = 64;

/// A group of reads of one array whose dimensions move with the same band
/// members (syrk's `A[j][k]` and `A[j][k + 1]`; `A[i][k]` is another group).
#[derive(Debug)]
struct Group {
    array: String,
    /// Per dimension, the member it moves with (`None`: a constant).
    key: Vec<Option<usize>>,
    /// `(statement, access)` indices of the reads.
    reads: Vec<(usize, usize)>,
    subs: Vec<Vec<Sub>>,
}

/// A read: `(statement, access)` indices and its classified subscripts.
type Read = ((usize, usize), Vec<Sub>);

/// Groups of reads of the arrays that the SCoP never writes, by the band's
/// statements. An array some of whose reads are not a member plus a
/// constant, or a constant, in every subscript is left out: its references
/// could not be told apart in the printed code.
fn groups(scop: &Scop, band: &Band) -> Vec<Group> {
    let written = scop.written();
    // Per array, its classified reads, or `None` once one is not classifiable.
    let mut by_array: BTreeMap<&str, Option<Vec<Read>>> = BTreeMap::new();
    for (s, rows) in &band.rows {
        let stmt = &scop.statements[*s];
        // Statement iterator -> (member, constant) where a member is that iterator plus a constant.
        let members: BTreeMap<&str, (usize, i64)> = rows
            .iter()
            .flatten()
            .enumerate()
            .filter_map(|(m, row)| match single_iterator(row) {
                Some((i, 1)) => Some((stmt.iterators[i].as_str(), (m, row.1))),
                _ => None,
            })
            .collect();
        for (k, a) in stmt.accesses.iter().enumerate().filter(|(_, a)| !a.write && !a.subscripts.is_empty()) {
            let entry = by_array.entry(a.array.as_str()).or_insert_with(|| Some(Vec::new()));
            let classified: Option<Vec<Sub>> = a.unit_terms().and_then(|terms| {
                terms
                    .into_iter()
                    .map(|(v, k)| match v {
                        None => Some(Sub::Constant(k)),
                        Some(v) => members.get(v.as_str()).map(|&(m, c)| Sub::Member(m, k - c)),
                    })
                    .collect()
            });
            match (entry.as_mut(), classified) {
                (Some(list), Some(c)) if rows.is_some() => list.push(((*s, k), c)),
                _ => *entry = None,
            }
        }
    }
    let mut out: Vec<Group> = Vec::new();
    for (array, reads) in by_array {
        let Some(reads) = reads.filter(|_| !written.contains(&array)) else { continue };
        for (at, subs) in reads {
            let key: Vec<Option<usize>> =
                subs.iter().map(|s| if let Sub::Member(m, _) = s { Some(*m) } else { None }).collect();
            match out.iter_mut().find(|g| g.array == array && g.key == key) {
                Some(g) => {
                    g.reads.push(at);
                    g.subs.push(subs);
                }
                None => out.push(Group { array: array.to_string(), key, reads: vec![at], subs: vec![subs] }),
            }
        }
    }
    out
}

/// Buffer order and extents for reads `reads` (subscripts per read) of one
/// array, when its dimensions move consistently and one moves with the
/// vector loop's member `inner`.
fn layout(reads: &[Vec<Sub>], inner: usize) -> Option<(Vec<usize>, Vec<String>)> {
    let rank = reads.first()?.len();
    if rank < 2 || reads.iter().any(|r| r.len() != rank) {
        return None;
    }
    let mut widths = Vec::new();
    let mut vector_dim = None;
    for d in 0..rank {
        let col: Vec<Sub> = reads.iter().map(|r| r[d]).collect();
        let width = match col[0] {
            Sub::Member(m, _) => {
                let ks: Option<Vec<i64>> =
                    col.iter().map(|s| if let Sub::Member(n, k) = *s { (n == m).then_some(k) } else { None }).collect();
                let ks = ks?;
                let spread = ks.iter().max()? - ks.iter().min()?;
                if m == inner {
                    vector_dim = Some(d);
                }
                if spread == 0 { tile_param(m) } else { format!("{} + {spread}", tile_param(m)) }
            }
            Sub::Constant(_) => {
                let ks: Option<Vec<i64>> =
                    col.iter().map(|s| if let Sub::Constant(k) = *s { Some(k) } else { None }).collect();
                let ks = ks?;
                (ks.iter().max()? - ks.iter().min()? + 1).to_string()
            }
        };
        widths.push(width);
    }
    let v = vector_dim?;
    let perm = (0..rank).filter(|&d| d != v).chain([v]).collect();
    Some((perm, widths))
}

/// Whether `config` packs some read of `band` (tiled): whether packing
/// changes its code.
pub fn packs(scop: &Scop, band: &Band, config: &crate::Config) -> bool {
    !packed_reads(scop, band, config.sink).is_empty()
}

/// The reads of `band` (tiled) that a packing config of loop order `sink`
/// copies, as `(statement, access)` indices. Codegen may still leave one
/// out where ISL's footprint is too piecewise to print ([`plan`]).
pub fn packed_reads(scop: &Scop, band: &Band, sink: bool) -> Vec<(usize, usize)> {
    let Some(&inner) = band.orders.for_config(sink, true).last() else { return Vec::new() };
    groups(scop, band)
        .into_iter()
        .filter(|g| reused(band, g) && layout(&g.subs, inner).is_some())
        .flat_map(|g| g.reads)
        .collect()
}

/// Whether some member of `band` is in no subscript of `g`: its iterations
/// reuse the copy. A copy read once (gemv's `A[i][j]`) costs more than it saves.
fn reused(band: &Band, g: &Group) -> bool {
    (0..band.names.len()).any(|m| !g.key.contains(&Some(m)))
}

/// The reads packed in the tiles of `band`, whose innermost tile loop is
/// schedule dimension `q` of a part with schedule `map` and dimensions
/// `dims`. `next` numbers the buffers.
pub fn plan(
    ctx: &Context,
    scop: &Scop,
    band: &Band,
    part: (&str, &[Dim]),
    q: usize,
    next: &mut usize,
) -> Result<Vec<Packed>, PolyError> {
    let Some(inner) = innermost_member(part.1, q) else { return Ok(Vec::new()) };
    let mut tile: Option<Tile> = None;
    let mut out = Vec::new();
    for g in groups(scop, band) {
        let Some((perm, widths)) = layout(&g.subs, inner).filter(|_| reused(band, &g)) else { continue };
        let tile = match tile.as_mut() {
            Some(t) => t,
            None => tile.insert(Tile::new(ctx, scop, part, q)?),
        };
        let Some(footprint) = tile.footprint(ctx, scop, &g)? else { continue };
        let widths = capped(widths, &tile.extents(ctx, scop, &g));
        let key = g.key.iter().map(|m| m.map(|m| band.names[m].clone())).collect();
        out.push(Packed { array: g.array, key, buffer: format!("tss_p{next}"), perm, widths, footprint });
        *next += 1;
    }
    Ok(out)
}

/// Each buffer width bounded by the extent the group's reads span in that
/// dimension over the whole part, where that is known. A tile larger than
/// its loop (256 over batched-matmul's NJ = 29) would otherwise lay each
/// buffer row out 256 elements apart, spreading 29 used ones per row over
/// 8.8x the lines and pages. Every footprint lies within that extent, so the
/// narrower buffer still holds it. `tss_max` keeps the width positive where
/// no read runs at all (the buffer is then allocated but unused).
fn capped(widths: Vec<String>, extents: &[Option<String>]) -> Vec<String> {
    widths
        .into_iter()
        .zip(extents)
        .map(|(w, extent)| match extent {
            Some(e) if w.contains("TSS_T") => format!("tss_min({w}, tss_max({e}, 1))"),
            _ => w,
        })
        .collect()
}

/// The band member of the innermost point loop of the band whose innermost
/// tile loop is dimension `q`.
fn innermost_member(dims: &[Dim], q: usize) -> Option<usize> {
    let DimKind::Point { band, .. } = dims.get(q + 1)?.kind else { return None };
    dims.iter().rev().find_map(|d| match d.kind {
        DimKind::Point { member, band: b } if b == band => Some(member),
        _ => None,
    })
}

/// One tile of a band as every group's footprint sees it, built once per
/// band: the loops at and around the tile's body (schedule dimensions up
/// to `q`) are fixed and become parameters `tss_d{p}`.
struct Tile<'a> {
    dims: &'a [Dim],
    /// The part's schedule, statement instance -> schedule point.
    schedule: UnionMap,
    /// The schedule points of one tile's body.
    fix: UnionSet,
    /// Parameter values (sizes, tile sizes, fixed loops) at which the body runs.
    context: Set,
}

impl<'a> Tile<'a> {
    fn new(ctx: &Context, scop: &Scop, (map, dims): (&str, &'a [Dim]), q: usize) -> Result<Self, PolyError> {
        let params = scop.params.join(", ");
        let fixed: Vec<usize> = (0..=q).filter(|&p| dims[p].kind != DimKind::Seq).collect();
        let point: Vec<String> = (0..dims.len()).map(|p| format!("c{p}")).collect();
        let names: Vec<String> = fixed.iter().map(|p| format!("tss_d{p}")).collect();
        let eqs: Vec<String> = fixed.iter().map(|p| format!("c{p} = tss_d{p}")).collect();
        let cond = if eqs.is_empty() { String::new() } else { format!(" : {}", eqs.join(" and ")) };
        let all_params = [params.clone(), names.join(", ")].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>();
        let fix = UnionSet::read_from_str(
            ctx,
            &format!("[{}] -> {{ [{}]{cond} }}", all_params.join(", "), point.join(", ")),
        )?;
        let schedule = UnionMap::read_from_str(ctx, map)?;
        let runs = schedule.copy()?.range()?.intersect(fix.copy()?)?.params()?;
        let tiles: Vec<String> = (0..dims.len()).map(tile_param).collect();
        let context_params = [params, tiles.join(", "), names.join(", ")].into_iter().filter(|s| !s.is_empty());
        let tile_cons: Vec<String> = tiles.iter().map(|t| format!("{t} >= 1")).collect();
        let context =
            format!("[{}] -> {{ : {} }}", context_params.collect::<Vec<_>>().join(", "), tile_cons.join(" and "));
        let context = Set::read_from_str(ctx, &context)?.intersect_params(runs)?;
        Ok(Tile { dims, schedule, fix, context })
    }

    /// Lowest and highest index, per dimension of the array, that the
    /// group's reads touch in one tile: C expressions over the fixed loops
    /// and the parameters. `None` when ISL's answer is too piecewise to be
    /// worth printing.
    fn footprint(&self, ctx: &Context, scop: &Scop, group: &Group) -> Result<Option<Footprint>, PolyError> {
        let reads = reads_map(ctx, scop, group)?;
        let touched =
            self.schedule.copy()?.reverse()?.apply_range(reads)?.intersect_domain(self.fix.copy()?)?.range()?;
        if touched.n_set()? != 1 {
            return Ok(None);
        }
        let touched = Set::from_union_set(touched)?;
        let reads_some = touched.copy()?.params()?;
        let rank = touched.dim(isl_rs::DimType::Set)?;
        let printer = ExprPrinter { dims: self.dims, shift: &[], inlined: &[] };
        // Where the body runs but reads none of the group, the copy is skipped.
        let guard = if self.context.is_subset(&reads_some)? {
            None
        } else {
            let build = AstBuild::from_context(self.context.copy()?)?;
            Some(printer.print(&build.expr_from_set(ctx, reads_some.copy()?)?)?)
        };
        let build = AstBuild::from_context(self.context.copy()?.intersect_params(reads_some)?)?;
        let (mut lo, mut hi) = (Vec::new(), Vec::new());
        for d in 0..rank {
            for (bound, out) in [(touched.copy()?.dim_min(d)?, &mut lo), (touched.copy()?.dim_max(d)?, &mut hi)] {
                if bound.n_piece()? > MAX_PIECES {
                    return Ok(None);
                }
                out.push(printer.print(&build.expr_from_pw_aff(ctx, bound)?)?);
            }
        }
        Ok(Some(Footprint { lo, hi, guard }))
    }

    /// Per dimension of the array, how many indices the group's reads
    /// span in the whole part (highest minus lowest plus one), as C text
    /// over the parameters; `None` where ISL's answer is missing or too
    /// piecewise.
    fn extents(&self, ctx: &Context, scop: &Scop, group: &Group) -> Vec<Option<String>> {
        let rank = group.subs.first().map_or(0, Vec::len);
        let all = (|| -> Result<Option<Set>, PolyError> {
            let all = self.schedule.copy()?.domain()?.apply(reads_map(ctx, scop, group)?)?;
            Ok(if all.n_set()? == 1 { Some(Set::from_union_set(all)?) } else { None })
        })();
        let Ok(Some(all)) = all else { return vec![None; rank] };
        let printer = ExprPrinter { dims: self.dims, shift: &[], inlined: &[] };
        let extent = |d: i32| -> Result<Option<String>, PolyError> {
            let span = all.copy()?.dim_max(d)?.sub(all.copy()?.dim_min(d)?)?.add_constant_val(Val::one(ctx)?)?;
            if span.n_piece()? > MAX_PIECES {
                return Ok(None);
            }
            let build = AstBuild::from_context(all.copy()?.params()?)?;
            Ok(Some(printer.print(&build.expr_from_pw_aff(ctx, span)?)?))
        };
        (0..rank as i32).map(|d| extent(d).ok().flatten()).collect()
    }
}

/// The reads of `group` as one map from statement instances to elements.
fn reads_map(ctx: &Context, scop: &Scop, group: &Group) -> Result<UnionMap, PolyError> {
    let reads: Vec<String> =
        group.reads.iter().map(|&(s, k)| scop.statements[s].access_isl(&scop.statements[s].accesses[k])).collect();
    Ok(UnionMap::read_from_str(ctx, &format!("[{}] -> {{ {} }}", scop.params.join(", "), reads.join("; ")))?)
}

impl Packed {
    /// Declaration and allocation of the buffer (before the tiles).
    pub fn alloc(&self) -> String {
        let elem = format!("__typeof__({}{})", self.array, "[0]".repeat(self.perm.len()));
        let inner: String = self.perm[1..].iter().map(|&d| format!("[{}]", self.widths[d])).collect();
        let size: Vec<String> = self.perm.iter().map(|&d| format!("({})", self.widths[d])).collect();
        format!("{elem} (*{b}){inner} = __builtin_malloc(sizeof({elem}) * {});", size.join(" * "), b = self.buffer)
    }

    pub fn free(&self) -> String {
        format!("__builtin_free({});", self.buffer)
    }

    /// Lines that set the footprint's bounds and copy it in (inside a
    /// block that the tile's body shares).
    pub fn copy(&self) -> Vec<String> {
        let b = &self.buffer;
        let rank = self.perm.len();
        let f = &self.footprint;
        let vars: Vec<String> = (0..rank).map(|d| format!("{b}_x{d}")).collect();
        let inner = self.perm[rank - 1];
        let xb = format!("{b}_xb");
        let mut declared = vars.clone();
        if inner != rank - 1 {
            declared.push(xb.clone());
        }
        let mut lines = Vec::new();
        match &f.guard {
            // Only the guarded tiles have a box; the others copy nothing.
            Some(g) => {
                let bounds: Vec<String> = (0..rank).map(|d| format!("{b}_l{d} = 0, {b}_h{d} = -1")).collect();
                lines.push(format!("int {}, {};", bounds.join(", "), declared.join(", ")));
                lines.push(format!("if ({g}) {{"));
                for d in 0..rank {
                    lines.push(format!("  {b}_l{d} = {};", f.lo[d]));
                    lines.push(format!("  {b}_h{d} = {};", f.hi[d]));
                }
                lines.push("}".into());
            }
            None => {
                let bounds: Vec<String> =
                    (0..rank).map(|d| format!("{b}_l{d} = {}, {b}_h{d} = {}", f.lo[d], f.hi[d])).collect();
                lines.push(format!("int {}, {};", bounds.join(", "), declared.join(", ")));
            }
        }
        // In the buffer's order, so that the stores are stride 1. A
        // transposing copy (syrk's `A[j][k]` into `[k][j]`) of more than
        // PACK_TALL rows also strips the buffer's last dimension into blocks of
        // PACK_BLOCK outside the source's last one: it then reads 8 source
        // lines at a time, each across 8 iterations, where a column of 256
        // rows 14 KiB apart (M = 1792) thrashed two L1 sets. syrk
        // 256x256x64:8x1x1/pack/v2 (AVX-512): 0.131 -> 0.119 s for stride-1
        // stores, then 0.107 -> 0.100 s for the blocks. Short columns stay
        // unblocked: gemm-tt's 32 rows (7.7 KiB apart) copied 18 % slower.
        let dst: String = self.perm.iter().map(|&d| format!("[{} - {b}_l{d}]", vars[d])).collect();
        let src: String = vars.iter().map(|v| format!("[{v}]")).collect();
        let assign = format!("{b}{dst} = {}{src};", self.array);
        if inner == rank - 1 {
            lines.extend(self.copy_loops(&vars, None, &assign, ""));
            return lines;
        }
        lines.push(format!("if ({b}_h{inner} - {b}_l{inner} >= {PACK_TALL}) {{"));
        lines.extend(self.copy_loops(&vars, Some(&xb), &assign, "  "));
        lines.push("} else {".into());
        lines.extend(self.copy_loops(&vars, None, &assign, "  "));
        lines.push("}".into());
        lines
    }

    /// The copy's loop nest in buffer order; with `block`, the buffer's last
    /// dimension in blocks of [`PACK_BLOCK`] stepped by `block` just outside
    /// the source's last dimension.
    fn copy_loops(&self, vars: &[String], block: Option<&str>, assign: &str, indent: &str) -> Vec<String> {
        let b = &self.buffer;
        let rank = self.perm.len();
        let inner = self.perm[rank - 1];
        let mut lines = Vec::new();
        let mut pad = indent.to_string();
        for &d in &self.perm {
            let v = &vars[d];
            match block {
                Some(xb) if d == rank - 1 => {
                    lines.push(format!("{pad}for ({xb} = {b}_l{inner}; {xb} <= {b}_h{inner}; {xb} += {PACK_BLOCK})"));
                    pad.push_str("  ");
                    lines.push(format!("{pad}for ({v} = {b}_l{d}; {v} <= {b}_h{d}; {v}++)"));
                }
                Some(xb) if d == inner => lines
                    .push(format!("{pad}for ({v} = {xb}; {v} <= tss_min({b}_h{d}, {xb} + {}); {v}++)", PACK_BLOCK - 1)),
                _ => lines.push(format!("{pad}for ({v} = {b}_l{d}; {v} <= {b}_h{d}; {v}++)")),
            }
            pad.push_str("  ");
        }
        lines.push(format!("{pad}{assign}"));
        lines
    }
}

impl Packed {
    /// Whether a reference with subscripts `subs` belongs to the group: a
    /// constant where the key has none, its loop plus a constant elsewhere.
    fn matches(&self, subs: &[&str]) -> bool {
        subs.len() == self.key.len()
            && subs.iter().zip(&self.key).all(|(s, k)| {
                scalar::linear(s).is_some_and(|l| match k {
                    Some(v) => l.terms.len() == 1 && l.terms.get(v) == Some(&1),
                    None => l.terms.is_empty(),
                })
            })
    }
}

/// `text` with every reference of a packed group replaced by its buffer
/// element.
pub fn rewrite(text: &str, packed: &[Packed]) -> String {
    let mut out = String::new();
    let mut last = 0;
    for r in scalar::references(text) {
        let subs = scalar::subscript_texts(&text[r.start + r.array.len()..r.end]);
        let Some(p) = packed.iter().find(|p| p.array == r.array && p.matches(&subs)) else { continue };
        out.push_str(&text[last..r.start]);
        out.push_str(&p.buffer);
        for &d in &p.perm {
            let s = subs[d].trim();
            let simple = s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') || wrapped(s);
            let s = if simple { s.to_string() } else { format!("({s})") };
            out.push_str(&format!("[{s} - {}_l{d}]", p.buffer));
        }
        last = r.end;
    }
    out.push_str(&text[last..]);
    out
}

/// Whether `s` is one parenthesised expression, `(c + 1)`.
fn wrapped(s: &str) -> bool {
    let mut depth = 0;
    for (k, ch) in s.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 && k + 1 < s.len() {
                    return false;
                }
            }
            _ if depth == 0 => return false,
            _ => {}
        }
    }
    s.starts_with('(')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packed() -> Packed {
        Packed {
            array: "A".into(),
            key: vec![Some("j".into()), Some("c".into())],
            buffer: "tss_p0".into(),
            perm: vec![1, 0],
            widths: vec!["TSS_T2".into(), "TSS_T3 + 1".into()],
            footprint: Footprint {
                lo: vec!["j_t".into(), "c_t".into()],
                hi: vec!["tss_min(N - 1, j_t + TSS_T2 - 1)".into(), "c_t + TSS_T3".into()],
                guard: None,
            },
        }
    }

    #[test]
    fn the_vector_loops_dimension_goes_last() {
        use Sub::*;
        // A[j][k] and A[j][k + 1] with j (member 1) innermost.
        let reads = vec![vec![Member(1, 0), Member(2, 0)], vec![Member(1, 0), Member(2, 1)]];
        assert_eq!(layout(&reads, 1), Some((vec![1, 0], vec!["TSS_T2".into(), "TSS_T3 + 1".into()])));
        // Already stride 1 (B[k][j]): packed as it is, into a contiguous panel.
        assert_eq!(layout(&[vec![Member(2, 0), Member(1, 0)]], 1).unwrap().0, vec![0, 1]);
        // Invariant in the vector loop (A[i][k] under j): left alone.
        assert_eq!(layout(&[vec![Member(0, 0), Member(2, 0)]], 1), None);
        // A dimension that is a member in one read and a constant in another.
        assert_eq!(layout(&[vec![Member(1, 0), Member(2, 0)], vec![Member(1, 0), Constant(0)]], 1), None);
        // A constant row: one slot per distinct constant.
        assert_eq!(layout(&[vec![Member(1, 0), Constant(3)], vec![Member(1, 0), Constant(5)]], 1).unwrap().1[1], "3");
    }

    #[test]
    fn buffer_widths_are_capped_by_the_reads_extent() {
        let widths = vec!["TSS_T2".into(), "TSS_T3 + 1".into(), "3".into()];
        let capped = capped(widths, &[Some("N".into()), None, Some("M".into())]);
        assert_eq!(capped, ["tss_min(TSS_T2, tss_max(N, 1))", "TSS_T3 + 1", "3"]);
    }

    #[test]
    fn references_read_the_buffer() {
        // A[i][c] is another group (it moves with i): it keeps reading A.
        let text = "C[i][j] += A[i][c] * A[j][(c + 1)] + BA[j][c] + A[j][2 * c];";
        assert_eq!(
            rewrite(text, &[packed()]),
            "C[i][j] += A[i][c] * tss_p0[(c + 1) - tss_p0_l1][j - tss_p0_l0] + BA[j][c] + A[j][2 * c];"
        );
        assert!(wrapped("(c + 1)") && !wrapped("(c) + (d)") && !wrapped("c + 1"));
        assert_eq!(rewrite("x = A[j][c - 1];", &[packed()]), "x = tss_p0[(c - 1) - tss_p0_l1][j - tss_p0_l0];");
    }

    #[test]
    fn the_copy_writes_the_buffer_row_by_row() {
        let p = packed();
        assert_eq!(
            p.alloc(),
            "__typeof__(A[0][0]) (*tss_p0)[TSS_T2] = __builtin_malloc(sizeof(__typeof__(A[0][0])) * (TSS_T3 + 1) * (TSS_T2));"
        );
        let copy = p.copy();
        assert_eq!(
            copy[0],
            "int tss_p0_l0 = j_t, tss_p0_h0 = tss_min(N - 1, j_t + TSS_T2 - 1), tss_p0_l1 = c_t, tss_p0_h1 = c_t + TSS_T3, tss_p0_x0, tss_p0_x1, tss_p0_xb;"
        );
        // A transposing copy: blocks of 8 source rows when the column is tall.
        let element = "tss_p0[tss_p0_x1 - tss_p0_l1][tss_p0_x0 - tss_p0_l0] = A[tss_p0_x0][tss_p0_x1];";
        assert_eq!(
            copy[1..],
            [
                "if (tss_p0_h0 - tss_p0_l0 >= 64) {",
                "  for (tss_p0_xb = tss_p0_l0; tss_p0_xb <= tss_p0_h0; tss_p0_xb += 8)",
                "    for (tss_p0_x1 = tss_p0_l1; tss_p0_x1 <= tss_p0_h1; tss_p0_x1++)",
                "      for (tss_p0_x0 = tss_p0_xb; tss_p0_x0 <= tss_min(tss_p0_h0, tss_p0_xb + 7); tss_p0_x0++)",
                &format!("        {element}"),
                "} else {",
                "  for (tss_p0_x1 = tss_p0_l1; tss_p0_x1 <= tss_p0_h1; tss_p0_x1++)",
                "    for (tss_p0_x0 = tss_p0_l0; tss_p0_x0 <= tss_p0_h0; tss_p0_x0++)",
                &format!("      {element}"),
                "}",
            ]
        );
    }
}
