//! Vector register tiles ([`crate::Config::vector`]): the statement of a
//! register tile rewritten to run on whole vectors of the vector loop.
//!
//! tss's plain register tile keeps the reduction loop (gemm's and syrk's
//! `k`) outside the vector loop, so every iteration of `k` loads and stores
//! the tile's row of `C` again, and GCC spills the `A[i+a][k+b]` values the
//! copies need (32 of them at 4x8) around the loop. BLAS micro-kernels do the
//! opposite: a block of `C` of a few rows and a few vectors wide stays in
//! registers while `k` runs innermost, and each step loads one vector of the
//! packed operand per column group and one scalar per row. GCC does not
//! find that form from scalar code (its SLP vectoriser leaves the
//! accumulators scalar), so tss writes it with GNU C vector types: one
//! accumulator `tss_vd` per row and group of `TSS_VL` columns, loaded before
//! the `k` loop and stored after it. On the Intel Xeon (AVX-512) a
//! hand-written syrk of that form ran at 45 GF/s, against 26 for tss's best
//! plain register tile.
//!
//! The rewrite is per statement text. Each reference is one of:
//! - the written element: invariant in `k`, stride 1 in the vector loop's
//!   iterator `j`; it becomes the accumulator;
//! - a read of a read-only array with `j` only in its last subscript, with
//!   coefficient 1: a vector load at `j`, `j + TSS_VL`, ...;
//! - a read without `j`: a scalar, which C's vector arithmetic broadcasts.
//!
//! Anything else (a read of the written array elsewhere, a call, a cast, a
//! condition, `j` as a value) leaves the tile to the plain code. The arrays'
//! element type is checked by the compiler ([`Printer::vector_types`]). Each lane
//! then computes the same operations in the same order as the scalar
//! statement, so results stay bit-identical (GCC contracts `acc += s * v`
//! into an FMA exactly as it contracts the scalar statement).

use std::collections::BTreeSet;

use isl_rs::{ASTNode, ASTNodeType};

use super::scalar::{self, Linear};
use super::{Printer, above, below, common_range, pack, test_op};
use crate::frontend::Element;
use crate::poly::PolyError;
use crate::poly::ffi;
use crate::poly::tile::{Dim, DimKind};

/// The vector width, the lanes of the `tss_vd` in scope, and unaligned
/// loads and stores (through `tss_vu`, the same vector at byte alignment
/// that may alias its elements), defined once per file; each tile declares
/// its types from its written array ([`Printer::vector_types`]).
/// The width is the widest the target compiles for, but 32 bytes under
/// clang: on a CPU that prefers 256-bit vectors (Intel's AVX-512 parts)
/// clang splits a 64-byte vector type into two 256-bit halves anyway, so a
/// tile of 8x2 64-byte vectors would need 32 registers of accumulators;
/// gcc emits the 512-bit operations. `-DTSS_VBYTES=` overrides it.
pub(super) const MACROS: &str = concat!(
    "#ifndef TSS_VBYTES\n",
    "#if defined(__AVX512F__) && !defined(__clang__)\n",
    "#define TSS_VBYTES 64\n",
    "#elif defined(__AVX__)\n",
    "#define TSS_VBYTES 32\n",
    "#else\n",
    "#define TSS_VBYTES 16\n",
    "#endif\n",
    "#endif\n",
    "#ifndef TSS_VLD\n",
    "#define TSS_VL ((int) (sizeof(tss_vd) / sizeof(((tss_vd){0})[0])))\n",
    "#define TSS_VLD(p) (*(const tss_vu *) (p))\n",
    "#define TSS_VST(p, v) (*(tss_vu *) (p) = (v))\n",
    "#define TSS_VSPLAT(x) ((x) - (tss_vd){0})\n",
    "#endif\n"
);

/// Whether generated `code` holds a vector register tile.
pub fn has_vector_tile(code: &str) -> bool {
    code.contains("tss_vd tss_a")
}

impl Printer<'_> {
    /// Prints point loop `node` (over `dim`), when it is a reduction with
    /// the vector loop directly inside, as a vector register tile, and
    /// returns false, printing nothing, when it is not.
    ///
    /// For each block of `G * TSS_VL` iterations of the vector loop `j`
    /// within the range every copy of the jammed loops runs, the
    /// accumulators are loaded, the reduction loop `r` runs over them, and
    /// they are stored; then the same for single vectors. The rest of the
    /// range (fewer than a vector) runs as the plain jammed code, and each
    /// copy's own iterations outside the common range run alone before and
    /// after it, as in [`Printer::ivdep_loop`]. Legal because `r` and `j`
    /// are members of one permutable band: every part runs its instances in
    /// an order increasing in both, and parts follow one another in `j`.
    /// Within a block the lanes and the copies touch distinct elements
    /// ([`lanes`] admits no other read of a written array), and each
    /// element's updates stay in `r` order.
    pub(super) fn vector_tile(&mut self, node: &ASTNode, dim: &Dim, depth: usize) -> Result<bool, PolyError> {
        let groups = self.opts.config.vector;
        let DimKind::Point { band, .. } = dim.kind else { return Ok(false) };
        if groups == 0 || !self.shift.is_empty() || node.for_is_degenerate()? {
            return Ok(false);
        }
        let inner = node.for_get_body()?;
        if !matches!(ffi::ast_node_type(&inner), ASTNodeType::For) || inner.for_is_degenerate()? {
            return Ok(false);
        }
        let vdim = self.dim_of(inner.for_get_iterator()?.get_id()?.get_name()?)?.clone();
        let body = inner.for_get_body()?;
        let same_band = matches!(vdim.kind, DimKind::Point { band: b, .. } if b == band);
        let e = self.expr();
        let unit = e.print(&node.for_get_inc()?)? == "1" && e.print(&inner.for_get_inc()?)? == "1";
        if !same_band || !vdim.ivdep || !unit || !matches!(ffi::ast_node_type(&body), ASTNodeType::User) {
            return Ok(false);
        }
        let (j, r) = (vdim.name.clone(), dim.name.clone());
        if self.bounds_read(&inner, &[r.as_str()])? {
            return Ok(false);
        }
        let (rcond, vcond) = (node.for_get_cond()?, inner.for_get_cond()?);
        let (Ok(rop), Ok(op)) = (test_op(&rcond), test_op(&vcond)) else { return Ok(false) };
        let (rinit, rbound) = (node.for_get_init()?, rcond.get_op_arg(1)?);
        // trmm's `k > i` under a jammed `i`: each copy's own reduction range.
        let rsplit =
            if self.depends_on_jam(node)? { self.own_ranges(&rinit, &rbound, &inner, depth + 2)? } else { Vec::new() };
        let reduction = if rsplit.is_empty() {
            let e = self.expr();
            (e.print(&rinit)?, e.print(&rbound)?)
        } else {
            (format!("tss_lb_{r}"), format!("tss_ub_{r}"))
        };
        let copies = self.own_ranges(&inner.for_get_init()?, &vcond.get_op_arg(1)?, &body, depth + 3)?;
        let written = self.written_names(&body)?;
        let fresh = self.fresh_arrays(&body)?;
        let mut stmts = Vec::new();
        for (text, _) in &copies {
            let rewritten = pack::rewrite(text.trim(), &self.active);
            let Some(l) = lanes(&rewritten, &j, &r, &written, &fresh) else { return Ok(false) };
            stmts.push(l);
        }
        // Every copy must write the same column: the accumulators span it.
        if stmts.iter().any(|s| s.column != stmts[0].column) {
            return Ok(false);
        }
        // A float SCoP computes a floating literal in double; its vectors would not.
        if self.scop.element == Element::Float && stmts.iter().any(|s| s.literal) {
            return Ok(false);
        }
        let Some(accs) = accumulators(&stmts) else { return Ok(false) };
        let split = self.depends_on_jam(&inner)?;
        let tile = VectorTile { j, r, op, rop, reduction, groups, split };
        if rsplit.is_empty() {
            self.print_vector_tile(&tile, &copies, &stmts, &accs, depth);
            return Ok(true);
        }
        // Each copy's reduction steps below the common range alone, then
        // the tile over the common range, then the steps above it: the
        // split of [`Printer::split_loop`], legal for the same reason.
        self.around_common_range(&rsplit, &tile.r, rop, depth, |p, _, _| {
            p.print_vector_tile(&tile, &copies, &stmts, &accs, depth + 1);
            Ok(())
        })?;
        Ok(true)
    }

    /// The arrays `body`'s statement writes whose other reads are fresh
    /// ([`crate::poly::deps::fresh_reads`]).
    fn fresh_arrays(&self, body: &ASTNode) -> Result<BTreeSet<String>, PolyError> {
        let name = body.user_get_expr()?.get_op_arg(0)?.get_id()?.get_name()?.to_string();
        Ok(self.fresh.iter().filter(|(s, _)| *s == name).map(|(_, a)| a.clone()).collect())
    }

    /// Prints the nest [`Printer::vector_tile`] describes.
    fn print_vector_tile(
        &mut self,
        t: &VectorTile,
        copies: &[super::CopyRange],
        stmts: &[Lanes],
        accs: &[usize],
        depth: usize,
    ) {
        let (j, op, g) = (t.j.as_str(), t.op, t.groups);
        let (rinit, rub) = &t.reduction;
        let reduction = format!("for ({r} = {rinit}; {r} {rop} {rub}; {r}++) {{", r = t.r, rop = t.rop);
        let (lb, ub) = common_range(copies.iter().map(|(_, own)| own));
        self.line(depth, &format!("{{ int tss_lb = {lb}, tss_ub = {ub}, tss_jv = tss_lb;"));
        self.vector_types(stmts, depth + 1);
        if t.split {
            self.line(depth + 1, &reduction);
            let under = below("tss_lb", op);
            self.copy_loops(copies, j, op, |l| l.to_string(), |u| format!("tss_min({u}, {under})"), depth + 2);
            self.line(depth + 1, "}");
        }
        // Only when a whole vector runs: the accumulators load and store
        // elements the tile would otherwise not touch, and the buffered
        // factors read what every copy reads at each step of the reduction.
        let span = if op == "<=" { "tss_ub - tss_lb + 1" } else { "tss_ub - tss_lb" };
        self.line(depth + 1, &format!("if ({rinit} {rop} {rub} && {span} >= TSS_VL) {{", rop = t.rop));
        let heads = self.buffered_heads(t, stmts, depth + 2);
        let (d, block_reduction) = match &heads {
            Some(_) => (depth + 3, format!("for ({r} = tss_r0; {r} <= tss_rh; {r}++) {{", r = t.r)),
            None => (depth + 2, reduction.clone()),
        };
        self.line(d, &format!("{j} = tss_lb;"));
        let blocks = Blocks { stmts, accs, heads: heads.as_deref(), reduction: &block_reduction };
        self.print_blocks(&blocks, j, g, &format!("({span}) / ({g} * TSS_VL)"), d);
        // What a whole block leaves, one vector at a time: a skinny vector
        // loop (gemm's `j` of 41 under 2-vector blocks of 8 doubles) would
        // otherwise run a fifth of its columns as the plain code below. The
        // count is written from the span, not from `j`, so that gcc deletes
        // the loop where constant sizes leave no whole vector: kept there, it
        // made rand-47's blocks 5-10 % slower without ever running.
        if g > 1 {
            self.print_blocks(&blocks, j, 1, &format!("(({span}) % ({g} * TSS_VL)) / TSS_VL"), d);
        }
        if heads.is_some() {
            self.line(depth + 2, "}");
        }
        self.line(depth + 2, &format!("tss_jv = {j};"));
        self.line(depth + 1, "}");
        // The columns left over, fewer than a block, as plain jammed code.
        self.line(depth + 1, &reduction);
        self.line(depth + 2, &format!("for ({j} = tss_jv; {j} {op} tss_ub; {j}++) {{"));
        for (text, _) in copies {
            self.out.push_str(text);
        }
        self.line(depth + 2, "}");
        self.line(depth + 1, "}");
        if t.split {
            self.line(depth + 1, &reduction);
            let over = above("tss_lb", "tss_ub", op);
            self.copy_loops(copies, j, op, |l| format!("tss_max({l}, {over})"), |u| u.to_string(), depth + 2);
            self.line(depth + 1, "}");
        }
        self.line(depth, "}");
    }
}

/// What every block loop of a vector register tile prints: the statements,
/// their accumulators, the buffered factors they read (if any) and the
/// reduction loop's header.
struct Blocks<'a> {
    stmts: &'a [Lanes],
    accs: &'a [usize],
    heads: Option<&'a [String]>,
    reduction: &'a str,
}

impl Printer<'_> {
    /// Prints a loop over `count` blocks of `g` vectors from `j` on:
    /// accumulators loaded, the reduction run over them, stored; `j` ends
    /// past the last block.
    ///
    /// Counted blocks rather than `j < tss_ub - (G * TSS_VL - 1)`: from
    /// that exit test and the guard around it, gcc 12 -O3 derived a trip
    /// count of 2^32 / (G * TSS_VL) for trmm at N = 67 under AVX-512
    /// (harness form, constant sizes), and its stores ran off the array.
    fn print_blocks(&mut self, b: &Blocks, j: &str, g: usize, count: &str, d: usize) {
        let width = if g == 1 { "TSS_VL".to_string() } else { format!("{g} * TSS_VL") };
        self.line(d, &format!("for (int tss_q = {count}; tss_q > 0; tss_q--, {j} += {width}) {{"));
        let rows: Vec<(usize, &str)> = b
            .accs
            .iter()
            .enumerate()
            .filter(|&(k, &a)| b.accs[..k].iter().all(|&c| c != a))
            .map(|(k, &a)| (a, b.stmts[k].written.as_str()))
            .collect();
        for &(a, w) in &rows {
            for x in 0..g {
                self.line(d + 1, &format!("tss_vd tss_a{a}_{x} = TSS_VLD(&{});", at_group(w, j, x)));
            }
        }
        self.line(d + 1, b.reduction);
        for (k, (s, &a)) in b.stmts.iter().zip(b.accs).enumerate() {
            let head = b.heads.map(|h| h[k].as_str());
            for x in 0..g {
                self.line(d + 2, &s.render(&format!("tss_a{a}_{x}"), j, x, head));
            }
        }
        self.line(d + 1, "}");
        for &(a, w) in &rows {
            for x in 0..g {
                self.line(d + 1, &format!("TSS_VST(&{}, tss_a{a}_{x});", at_group(w, j, x)));
            }
        }
        self.line(d, "}");
    }
}

impl Printer<'_> {
    /// The tile's vector types, of its written array's element type, and a
    /// compile-time check that the arrays it reads as vectors have that
    /// type and that it is double, or float without floating literals.
    /// The frontend does not read declarations (an `int` array in a file
    /// without `DATA_TYPE` is taken for double), so the compiler checks:
    /// a mismatch is a compile error, never a vector of the wrong type.
    fn vector_types(&mut self, stmts: &[Lanes], depth: usize) {
        let is = |a: &str, t: &str| format!("__builtin_types_compatible_p({a}, {t})");
        let floating = if stmts.iter().any(|s| s.literal) {
            is("tss_ve", "double")
        } else {
            format!("({} || {})", is("tss_ve", "double"), is("tss_ve", "float"))
        };
        let mut arrays: Vec<&String> = stmts.iter().flat_map(|s| &s.arrays).collect();
        arrays.sort();
        arrays.dedup();
        let same = arrays.iter().map(|a| is(&format!("__typeof__({a})"), "tss_ve"));
        let check = std::iter::once(floating).chain(same).collect::<Vec<_>>().join(" && ");
        self.line(depth, &format!("typedef __typeof__({}) tss_ve;", stmts[0].arrays[0]));
        self.line(depth, "typedef tss_ve tss_vd __attribute__((vector_size(TSS_VBYTES)));");
        self.line(depth, "typedef tss_ve tss_vu __attribute__((vector_size(TSS_VBYTES), aligned(1), may_alias));");
        self.line(
            depth,
            &format!("_Static_assert({check}, \"tss: a vector register tile needs one floating element type: tile without --vector\");"),
        );
    }

    /// When every statement has a leading scalar factor ([`Lanes::head`]):
    /// opens a loop over chunks of [`CHUNK`] steps of the reduction
    /// (`tss_r0`..`tss_rh`; the caller closes it) and fills a buffer
    /// `tss_s[r - tss_r0][k]` of the factors for the chunk, before the
    /// vector blocks; returns per statement the element it reads instead.
    /// gemm's `alpha * A[i][k]` is then one broadcast load per row and step,
    /// not a load, a multiply and a broadcast in every block (syrk 8x2 on
    /// AVX-512: 26 -> 45 GF/s by hand). Chunks are a tiling of the
    /// reduction inside the tile, legal in the permutable band, and keep
    /// the buffer on the stack at a bounded size whatever the tile size.
    fn buffered_heads(&mut self, t: &VectorTile, stmts: &[Lanes], depth: usize) -> Option<Vec<String>> {
        if stmts.iter().any(|s| s.head.is_empty()) {
            return None;
        }
        let mut distinct: Vec<&str> = Vec::new();
        let slots: Vec<usize> = stmts
            .iter()
            .map(|s| {
                distinct.iter().position(|h| *h == s.head).unwrap_or_else(|| {
                    distinct.push(&s.head);
                    distinct.len() - 1
                })
            })
            .collect();
        let (r, rop, (rinit, rub)) = (&t.r, t.rop, &t.reduction);
        let last = if rop == "<=" { format!("({rub})") } else { format!("({rub}) - 1") };
        self.line(depth, "int tss_r0;");
        self.line(depth, &format!("for (tss_r0 = {rinit}; tss_r0 {rop} {rub}; tss_r0 += {CHUNK}) {{"));
        self.line(depth + 1, &format!("const int tss_rh = tss_min(tss_r0 + {}, {last});", CHUNK - 1));
        self.line(depth + 1, &format!("__typeof__({}) tss_s[{CHUNK}][{}];", distinct[0], distinct.len()));
        self.line(depth + 1, &format!("for ({r} = tss_r0; {r} <= tss_rh; {r}++) {{"));
        for (k, h) in distinct.iter().enumerate() {
            self.line(depth + 2, &format!("tss_s[{r} - tss_r0][{k}] = {h};"));
        }
        self.line(depth + 1, "}");
        Some(slots.iter().map(|k| format!("tss_s[{r} - tss_r0][{k}]")).collect())
    }
}

/// Steps of the reduction whose buffered factors one stack buffer holds.
const CHUNK: usize = 256;

/// What [`Printer::print_vector_tile`] needs of the nest.
struct VectorTile {
    /// The vector loop's and the reduction loop's iterators.
    j: String,
    r: String,
    /// Their loop tests.
    op: &'static str,
    rop: &'static str,
    /// The reduction loop's first value and bound.
    reduction: (String, String),
    groups: usize,
    /// Whether the copies' ranges of `j` differ (remainders around the
    /// common range).
    split: bool,
}

/// The accumulator of each statement: statements writing the same row
/// share one, and distinct rows must be provably distinct elements (some
/// subscript apart by a nonzero constant).
fn accumulators(stmts: &[Lanes]) -> Option<Vec<usize>> {
    let mut rows: Vec<&Vec<Linear>> = Vec::new();
    let mut out = Vec::new();
    for s in stmts {
        if let Some(k) = rows.iter().position(|r| **r == s.row) {
            out.push(k);
            continue;
        }
        let apart =
            |r: &Vec<Linear>| r.len() == s.row.len() && r.iter().zip(&s.row).any(|(a, b)| a.differs_by_constant(b));
        if !rows.iter().all(|r| apart(r)) {
            return None;
        }
        out.push(rows.len());
        rows.push(&s.row);
    }
    Some(out)
}

/// Type keywords whose presence means a cast, which would not apply to a
/// vector the way it applies to a scalar.
const TYPE_WORDS: [&str; 10] =
    ["double", "float", "int", "long", "short", "char", "unsigned", "signed", "DATA_TYPE", "sizeof"];

/// One statement of a register tile, split for vector lanes.
#[derive(Debug, PartialEq)]
pub(super) struct Lanes {
    /// The written reference as printed (`C[(i + 1)][j]`).
    pub(super) written: String,
    /// Its subscripts but the last: two statements share an accumulator
    /// exactly when these are equal.
    pub(super) row: Vec<Linear>,
    /// Its last subscript, the same in every statement of a tile.
    pub(super) column: Linear,
    /// The assignment operator (`=`, `+=`, ...).
    pub(super) op: String,
    /// The right-hand side's leading scalar factor (`alpha * A[i][k]` of
    /// `alpha * A[i][k] * B[k][j]`) when it reads memory: C's
    /// multiplication is left-associative, so it is a value of its own,
    /// computed once per iteration of the reduction into a buffer rather
    /// than per vector block. Empty when there is none.
    pub(super) head: String,
    /// The rest of the right-hand side in pieces.
    rhs: Vec<Piece>,
    /// An element of the written array and of each array read as vectors
    /// (`C[0][0]`), whose types must be one floating type.
    pub(super) arrays: Vec<String>,
    /// Whether the statement holds a floating literal (then that type must
    /// be double).
    pub(super) literal: bool,
}

#[derive(Debug, PartialEq)]
enum Piece {
    /// Text printed as it is.
    Text(String),
    /// The written element: the accumulator.
    Acc,
    /// A reference stride 1 in `j`: a vector load.
    Load(String),
}

impl Lanes {
    /// The statement for lane group `g` with accumulator `acc`, reading the
    /// leading scalar factor from `head` when given.
    pub(super) fn render(&self, acc: &str, j: &str, g: usize, head: Option<&str>) -> String {
        let mut rest = String::new();
        for p in &self.rhs {
            match p {
                Piece::Text(t) => rest.push_str(t),
                Piece::Acc => rest.push_str(acc),
                Piece::Load(r) => rest.push_str(&format!("TSS_VLD(&{})", at_group(r, j, g))),
            }
        }
        let op = &self.op;
        let rhs = match head.unwrap_or(&self.head) {
            "" => rest.trim().to_string(),
            h => format!("{h} {}", rest.trim()),
        };
        // C assigns no scalar to a vector: a scalar right-hand side is
        // splatted by subtracting +0, which leaves every value as it is
        // (-0 included, where adding +0 would not).
        let scalar = self.rhs.iter().all(|p| matches!(p, Piece::Text(_)));
        if op == "=" && scalar { format!("{acc} = TSS_VSPLAT({rhs});") } else { format!("{acc} {op} {rhs};") }
    }
}

/// `text` with iterator `j` moved to lane group `g`: `j + g * TSS_VL`.
pub(super) fn at_group(text: &str, j: &str, g: usize) -> String {
    if g == 0 {
        return text.to_string();
    }
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if word == j {
            out.push_str(&format!("({j} + {g} * TSS_VL)"));
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Splits statement `text` (one `X op= expr;`) for lanes of the vector loop
/// over `j` inside the reduction loop over `r`, or `None` when it does not
/// have the form the module describes. `written` names every array the
/// tile writes, and `fresh` those of them whose reads, but of the written
/// element, find the initial value ([`crate::poly::deps::fresh_reads`]):
/// those are read like a read-only array.
pub(super) fn lanes(
    text: &str,
    j: &str,
    r: &str,
    written: &BTreeSet<String>,
    fresh: &BTreeSet<String>,
) -> Option<Lanes> {
    let text = text.trim().strip_suffix(';')?;
    if text.contains(';') || text.contains('\n') {
        return None;
    }
    let (lhs, op, rhs) = split_assignment(text)?;
    let refs = scalar::references(lhs);
    let [w] = refs.as_slice() else { return None };
    if w.start != 0 || w.end != lhs.len() || !written.contains(&w.array) {
        return None;
    }
    let mut subs = scalar::subscripts(&lhs[w.array.len()..])?;
    let column = subs.pop()?;
    let in_row = |l: &Linear, v: &str| l.terms.contains_key(v);
    if column.terms.get(j) != Some(&1) || in_row(&column, r) || subs.iter().any(|l| in_row(l, j) || in_row(l, r)) {
        return None;
    }
    let into_pieces = |part: &str| -> Option<Vec<Piece>> {
        let mut pieces = Vec::new();
        let mut last = 0;
        for x in scalar::references(part) {
            pieces.push(Piece::Text(plain(&part[last..x.start], j)?.to_string()));
            let t = &part[x.start..x.end];
            let s = scalar::subscripts(&t[x.array.len()..]);
            let own = written.contains(&x.array) && {
                let mut s = s.clone()?;
                let c = s.pop()?;
                x.array == w.array && s == subs && c == column
            };
            if own {
                pieces.push(Piece::Acc);
            } else if written.contains(&x.array) && !fresh.contains(&x.array) {
                // Any other element of a written array may be one the lanes
                // or the copies change, unless no write ever precedes it.
                return None;
            } else if scalar::identifiers(t).all(|v| v != j) {
                pieces.push(Piece::Text(t.to_string()));
            } else {
                let mut s = s?;
                let c = s.pop()?;
                (c.terms.get(j) == Some(&1) && s.iter().all(|l| !in_row(l, j))).then_some(())?;
                pieces.push(Piece::Load(t.to_string()));
            }
            last = x.end;
        }
        pieces.push(Piece::Text(plain(&part[last..], j)?.to_string()));
        Some(pieces)
    };
    let (head, rest) = rhs.split_at(scalar_head(rhs, j, written));
    into_pieces(head)?;
    let pieces = into_pieces(rest)?;
    let loads = pieces.iter().filter_map(|p| match p {
        Piece::Load(r) => scalar::references(r).first().map(|x| any_element(r, &x.array)),
        _ => None,
    });
    let arrays = std::iter::once(any_element(lhs, &w.array)).chain(loads).collect();
    Some(Lanes {
        arrays,
        literal: floating_literal(rhs),
        written: lhs.to_string(),
        row: subs,
        column,
        op: op.to_string(),
        head: head.trim().to_string(),
        rhs: pieces,
    })
}

/// Where the leading scalar factor of `rhs` ends (0: none): the longest
/// start `f1 * f2 ...` that C evaluates as the left operand of a following
/// `*` or `/`, with no `+` or `-` between its factors at the top level,
/// no reference to `j` or to a written array, and at least one reference.
fn scalar_head(rhs: &str, j: &str, written: &BTreeSet<String>) -> usize {
    let refs = scalar::references(rhs);
    let scalar =
        |r: &scalar::Ref| !written.contains(&r.array) && scalar::identifiers(&rhs[r.start..r.end]).all(|v| v != j);
    let (mut depth, mut best, mut operand) = (0i32, 0, false);
    for (k, &c) in rhs.as_bytes().iter().enumerate() {
        match c {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            _ if depth > 0 || c.is_ascii_whitespace() => continue,
            b'+' | b'-' if operand => return best,
            b'*' | b'/' => {
                let before: Vec<&scalar::Ref> = refs.iter().filter(|r| r.start < k).collect();
                if !before.iter().all(|r| scalar(r)) {
                    return best;
                }
                if !before.is_empty() {
                    best = k;
                }
            }
            _ => {}
        }
        operand = depth > 0 || c.is_ascii_alphanumeric() || b"_)].".contains(&c);
    }
    best
}

/// `lhs`, the operator and `rhs` of `lhs op= rhs`.
fn split_assignment(text: &str) -> Option<(&str, &str, &str)> {
    let b = text.as_bytes();
    let mut depth = 0;
    for (k, &c) in b.iter().enumerate() {
        match c {
            b'[' | b'(' => depth += 1,
            b']' | b')' => depth -= 1,
            b'=' if depth == 0 => {
                let prev = if k > 0 { b[k - 1] } else { b' ' };
                if b.get(k + 1) == Some(&b'=') || matches!(prev, b'=' | b'!' | b'<' | b'>') {
                    return None;
                }
                let compound = matches!(prev, b'+' | b'-' | b'*' | b'/');
                let start = if compound { k - 1 } else { k };
                return Some((text[..start].trim(), &text[start..=k], &text[k + 1..]));
            }
            _ => {}
        }
    }
    None
}

/// `text` (right-hand side between references) when it holds only
/// arithmetic a vector takes as a scalar does: names other than `j`,
/// numbers, `+ - * /` and parentheses; no call, cast or member access. For
/// float arrays no floating literal either: the scalar statement computes
/// it in double, a float vector would not.
fn plain<'t>(text: &'t str, j: &str) -> Option<&'t str> {
    let b = text.as_bytes();
    let mut k = 0;
    while k < b.len() {
        let c = b[k];
        if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' {
            let start = k;
            while k < b.len() && (b[k].is_ascii_alphanumeric() || b[k] == b'_' || b[k] == b'.') {
                k += 1;
            }
            let word = &text[start..k];
            let number = word.starts_with(|c: char| c.is_ascii_digit() || c == '.');
            if !number && (word.contains('.') || word == j || TYPE_WORDS.contains(&word)) {
                return None;
            }
            if !number && text[k..].trim_start().starts_with('(') {
                return None; // a call
            }
            continue;
        }
        if !(c.is_ascii_whitespace() || b"+-*/()".contains(&c)) {
            return None;
        }
        k += 1;
    }
    Some(text)
}

/// Whether `text` holds a floating literal (`0.5`, `1e3`): the scalar
/// statement computes it in double, so on float arrays a vector would not.
fn floating_literal(text: &str) -> bool {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_digit() || c == '.'))
        .any(|w| !w.starts_with("0x") && !w.starts_with("0X") && w.contains(['.', 'e', 'E']))
}

/// `X[0][0]` for reference `X[..][..]` of array `array`: an element of its
/// type, for `__typeof__`.
fn any_element(reference: &str, array: &str) -> String {
    let rank = scalar::subscript_texts(&reference[array.len()..]).len();
    format!("{array}{}", "[0]".repeat(rank))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(v: &[&str]) -> BTreeSet<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn syrk_splits_into_accumulator_broadcast_and_load() {
        let text = "C[(i + 1)][j] += alpha * A[(i + 1)][c] * tss_p0[c - tss_p0_l1][j - tss_p0_l0];";
        let l = lanes(text, "j", "c", &set(&["C"]), &set(&[])).unwrap();
        assert_eq!(l.written, "C[(i + 1)][j]");
        assert_eq!(l.arrays, vec!["C[0][0]".to_string(), "tss_p0[0][0]".into()]);
        assert_eq!(l.head, "alpha * A[(i + 1)][c]");
        assert_eq!(
            l.render("tss_a1_1", "j", 1, None),
            "tss_a1_1 += alpha * A[(i + 1)][c] * TSS_VLD(&tss_p0[c - tss_p0_l1][(j + 1 * TSS_VL) - tss_p0_l0]);"
        );
        assert_eq!(
            l.render("tss_a1_0", "j", 0, Some("tss_s[c][1]")),
            "tss_a1_0 += tss_s[c][1] * TSS_VLD(&tss_p0[c - tss_p0_l1][j - tss_p0_l0]);"
        );
        // The accumulator read on the right, in an assignment.
        let l = lanes("y[j] = y[j] + 2 * x[k][j];", "j", "k", &set(&["y"]), &set(&[])).unwrap();
        assert_eq!(l.render("a", "j", 0, None), "a = a + 2 * TSS_VLD(&x[k][j]);");
    }

    #[test]
    fn anything_a_vector_would_compute_differently_stays_scalar() {
        let w = set(&["C"]);
        let no = |t: &str| lanes(t, "j", "k", &w, &set(&[])).is_none();
        assert!(no("C[i][j] += A[j][k];"), "stride M in j");
        assert!(no("C[i][j] += C[i][j + 1];"), "another element of the written array");
        assert!(no("C[i][k] += A[i][j];"), "the written element moves with k");
        assert!(no("C[j][i] += A[i][j];"), "j is not the written element's column");
        assert!(no("C[i][2 * j] += A[i][j];"), "stride 2");
        assert!(no("C[i][j] += sqrt(A[i][j]);"), "a call");
        assert!(no("C[i][j] += (double) k * A[i][j];"), "a cast");
        assert!(no("C[i][j] += j * A[i][j];"), "j as a value");
        assert!(no("C[i][j] += k > 0 ? A[i][j] : 0;"), "a condition");
        assert!(no("C[i][j] == A[i][j];"), "not an assignment");
        assert!(no("C[i][j]++;"), "not an assignment");
        assert!(no("C[i][j] += s.x * A[i][j];"), "a member");
        let l = lanes("C[i][j] += 0.5 * A[k][j] * B[(i + 1)][k];", "j", "k", &w, &set(&[])).unwrap();
        assert!(l.literal && !lanes("C[i][j] += 2 * A[k][j] / n;", "j", "k", &w, &set(&[])).unwrap().literal);
        // A scalar assigned to the accumulator is splatted (found by the fuzzer).
        let splat = lanes("C[i][j] = 2 - 0.5 * s;", "j", "k", &w, &set(&[])).unwrap();
        assert_eq!(splat.render("a", "j", 0, None), "a = TSS_VSPLAT(2 - 0.5 * s);");
        assert_eq!(l.arrays, vec!["C[0][0]".to_string(), "A[0][0]".into()], "B is read as a scalar");
    }

    #[test]
    fn the_leading_scalar_factor_is_a_left_operand() {
        let w = set(&["C"]);
        let head = |t: &str| t[..scalar_head(t, "j", &w)].trim().to_string();
        assert_eq!(head("alpha * A[i][k] * B[k][j]"), "alpha * A[i][k]");
        assert_eq!(head("-A[i][k] / d[k] * B[k][j] + 1"), "-A[i][k] / d[k]");
        // Not a left operand of the product with B: x + (alpha * A) * B.
        assert_eq!(head("x + alpha * A[i][k] * B[k][j]"), "");
        assert_eq!(head("(x + A[i][k]) * B[k][j]"), "(x + A[i][k])");
        // No memory read in it (the compiler hoists it), or it reads j or C.
        assert_eq!(head("alpha * beta * B[k][j]"), "");
        assert_eq!(head("A[i][j] * B[k][j]"), "");
        assert_eq!(head("C[i][j] * B[k][j]"), "");
        assert_eq!(head("A[i][k] - B[k][j]"), "");
    }

    #[test]
    fn lane_groups_shift_only_the_vector_iterator() {
        assert_eq!(at_group("B[jj][j - j_t]", "j", 2), "B[jj][(j + 2 * TSS_VL) - j_t]");
        assert_eq!(at_group("B[k][j]", "j", 0), "B[k][j]");
    }
}
