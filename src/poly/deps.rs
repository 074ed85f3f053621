//! Memory-based dependences between statement instances.
//!
//! Two instances depend when they touch the same array element (or scalar),
//! at least one writes it, and the first precedes the second in the original
//! order. Memory-based (not value-based) dependences are conservative: they
//! can only forbid transformations, never allow a wrong one.

use std::collections::BTreeSet;

use isl_rs::{Context, UnionMap};

use super::model::Model;
use super::{PolyError, isl_err};
use crate::frontend::Scop;

pub struct Dependences {
    /// Read after write (flow).
    pub raw: UnionMap,
    /// Write after read (anti).
    pub war: UnionMap,
    /// Write after write (output).
    pub waw: UnionMap,
}

impl Dependences {
    pub fn compute(m: &Model) -> Result<Self, PolyError> {
        let c = |u: &UnionMap| u.copy().map_err(PolyError::from);
        let before = c(&m.schedule)?.lex_lt_union_map(c(&m.schedule)?)?;
        let pairs = |src: &UnionMap, dst: &UnionMap| -> Result<UnionMap, PolyError> {
            let touch = c(src)?.apply_range(c(dst)?.reverse()?)?;
            Ok(touch.intersect(c(&before)?)?.coalesce()?)
        };
        Ok(Self {
            raw: pairs(&m.writes, &m.reads)?,
            war: pairs(&m.reads, &m.writes)?,
            waw: pairs(&m.writes, &m.writes)?,
        })
    }

    /// All three kinds: what every legal schedule must respect.
    pub fn all(&self) -> Result<UnionMap, PolyError> {
        Ok(self.raw.copy()?.union(self.war.copy()?)?.union(self.waw.copy()?)?.coalesce()?)
    }
}

/// Statement and array pairs whose reads of a written array all find its
/// initial value: every read of the array in the statement, other than of
/// an element the statement itself writes (its accumulator), touches an
/// element no instance writes before it. trmm's `B[k][j]` (`k > i`) is
/// one: row `k` is updated only after every row above it has read it. A
/// vector register tile ([`crate::codegen`]) may then load such a read
/// from memory while its own updates wait in registers; the read sees no
/// write in the original order, so in no legal order either.
pub fn fresh_reads(ctx: &Context, m: &Model, scop: &Scop) -> Result<BTreeSet<(String, String)>, PolyError> {
    let c = |u: &UnionMap| u.copy().map_err(PolyError::from);
    // Read instance -> every instance that runs before it.
    let after = c(&m.schedule)?.lex_gt_union_map(c(&m.schedule)?)?;
    let mut fresh = BTreeSet::new();
    for s in &scop.statements {
        let written: BTreeSet<&str> = s.accesses.iter().filter(|a| a.write).map(|a| a.array.as_str()).collect();
        for array in written {
            let others: Vec<String> = s
                .accesses
                .iter()
                .filter(|a| !a.write && a.array == array && !s.writes_same(a))
                .map(|a| s.access_isl(a))
                .collect();
            if others.is_empty() {
                continue;
            }
            let text = format!("{}{{ {} }}", scop.param_prefix(), others.join("; "));
            let reads = UnionMap::read_from_str(ctx, &text)
                .map_err(|e| isl_err("read accesses", &text, e))?
                .intersect_domain_union_set(m.domain.copy()?)?;
            let earlier = reads.apply_range(c(&m.writes)?.reverse()?)?.intersect(c(&after)?)?;
            if earlier.is_empty()? {
                fresh.insert((s.name.clone(), array.to_string()));
            }
        }
    }
    Ok(fresh)
}

/// Reads of the deepest statements that find a value written by an earlier
/// iteration of the innermost loop, every outer loop at the same iteration:
/// a recurrence through memory along the loop the untiled code runs
/// innermost (seidel-2d's `A[i][j-1]`, written one `j` before), which gcc
/// does not vectorise as written, while a tile's reordered loops may. A
/// statement's own accumulator (a read of the element it writes) is a
/// reduction, which the `source` features count apart, and does not count.
/// Only a statement's dependences on itself count: the deepest statements
/// of the kernels seen so far are alone in their innermost loop.
pub fn inner_recurrences(ctx: &Context, m: &Model, scop: &Scop) -> Result<u32, PolyError> {
    let c = |u: &UnionMap| u.copy().map_err(PolyError::from);
    let depth = scop.statements.iter().map(|s| s.iterators.len()).max().unwrap_or(0);
    if depth == 0 {
        return Ok(0);
    }
    let before = c(&m.schedule)?.lex_lt_union_map(c(&m.schedule)?)?;
    let map = |what: &str, text: String| -> Result<UnionMap, PolyError> {
        let text = format!("{}{{ {text} }}", scop.param_prefix());
        Ok(UnionMap::read_from_str(ctx, &text)
            .map_err(|e| isl_err(what, &text, e))?
            .intersect_domain_union_set(m.domain.copy()?)?)
    };
    let mut count = 0;
    for s in scop.statements.iter().filter(|s| s.iterators.len() == depth) {
        let writes: Vec<String> = s.accesses.iter().filter(|a| a.write).map(|a| s.access_isl(a)).collect();
        if writes.is_empty() {
            continue;
        }
        let writes = map("write accesses", writes.join("; "))?;
        // Same outer iterations, another iteration of the innermost loop.
        let outer = &s.iterators[..depth - 1];
        let inner = &s.iterators[depth - 1];
        let sink: Vec<String> = outer.iter().cloned().chain(["tss_inner".to_string()]).collect();
        let along = map(
            "the innermost loop",
            format!("{} -> {}[{}] : tss_inner != {inner}", s.tuple(), s.name, sink.join(", ")),
        )?;
        for a in s.accesses.iter().filter(|a| !a.write && !s.writes_same(a)) {
            let read = map("read accesses", s.access_isl(a))?;
            let flow = c(&writes)?.apply_range(read.reverse()?)?.intersect(c(&before)?)?.intersect(c(&along)?)?;
            if !flow.is_empty()? {
                count += 1;
            }
        }
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::parse_file;

    /// `fresh_reads` of the one-statement nest `body` under `i, j, k` loops
    /// with `k` from `k_range`.
    fn fresh_of(k_range: &str, body: &str) -> BTreeSet<(String, String)> {
        let src = format!(
            "#pragma scop\nfor (i = 0; i < M; i++) for (j = 0; j < N; j++) for (k = {k_range}) {body}\n#pragma endscop\n"
        );
        let scop = &parse_file(&src).unwrap()[0];
        let ctx = Context::alloc();
        let m = Model::build(&ctx, scop).unwrap();
        fresh_reads(&ctx, &m, scop).unwrap()
    }

    #[test]
    fn rows_read_before_they_are_updated_are_fresh() {
        let trmm = fresh_of("i + 1; k < M; k++", "B[i][j] += A[k][i] * B[k][j];");
        assert_eq!(trmm, BTreeSet::from([("S0".to_string(), "B".to_string())]));
        // Rows above `i` were updated by the time row `i` reads them.
        assert!(fresh_of("0; k < i; k++", "B[i][j] += A[k][i] * B[k][j];").is_empty());
        // `B[i][k]` is the accumulator of an earlier `j` when `k < j`.
        assert!(fresh_of("0; k < N; k++", "B[i][j] += A[k][i] * B[i][k];").is_empty());
        // Only reads of written arrays count; the accumulator is no other read.
        assert!(fresh_of("0; k < N; k++", "C[i][j] += A[i][k] * B[k][j];").is_empty());
    }

    /// `inner_recurrences` of a SCoP written as `body`.
    fn recurrences_of(body: &str) -> u32 {
        let scop = &parse_file(&format!("#pragma scop\n{body}\n#pragma endscop\n")).unwrap()[0];
        let ctx = Context::alloc();
        let m = Model::build(&ctx, scop).unwrap();
        inner_recurrences(&ctx, &m, scop).unwrap()
    }

    #[test]
    fn a_value_written_one_inner_iteration_before_is_a_recurrence() {
        // seidel-2d: `A[i][j-1]` was written by the previous `j`; `A[i][j+1]`
        // is read before it is written, and the rows `i-1`, `i+1` belong to
        // other iterations of the outer loops.
        let seidel = "for (t = 0; t < T; t++) for (i = 1; i < N - 1; i++) for (j = 1; j < N - 1; j++) \
                      A[i][j] = (A[i-1][j] + A[i][j-1] + A[i][j] + A[i][j+1] + A[i+1][j]) / 5.0;";
        assert_eq!(recurrences_of(seidel), 1);
        // Jacobi writes another array; gemm's `C[i][j]` is its accumulator.
        assert_eq!(
            recurrences_of("for (i = 1; i < N - 1; i++) for (j = 1; j < N - 1; j++) B[i][j] = A[i][j-1] + A[i][j+1];"),
            0
        );
        assert_eq!(
            recurrences_of(
                "for (i = 0; i < N; i++) for (j = 0; j < N; j++) for (k = 0; k < N; k++) C[i][j] += A[i][k] * B[k][j];"
            ),
            0
        );
        // A prefix sum along the innermost loop, and one along the outer loop.
        assert_eq!(recurrences_of("for (i = 0; i < N; i++) for (j = 1; j < N; j++) A[i][j] = A[i][j-1] + B[i][j];"), 1);
        assert_eq!(recurrences_of("for (i = 1; i < N; i++) for (j = 0; j < N; j++) A[i][j] = A[i-1][j] + B[i][j];"), 0);
    }
}
