//! Memory-based dependences between statement instances.
//!
//! Two instances depend when they touch the same array element (or scalar),
//! at least one writes it, and the first precedes the second in the original
//! order. Memory-based (not value-based) dependences are conservative: they
//! can only forbid transformations, never allow a wrong one.

use isl_rs::UnionMap;

use super::PolyError;
use super::model::Model;

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
