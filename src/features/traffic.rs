//! An analytical estimate of the bytes a cache exchanges with the level
//! below it, per config: the textbook footprint argument, given to the
//! network so that it starts from data movement instead of learning it from
//! tile sizes and locality bits of kernels it never saw.
//!
//! The modelled nest is the tile loops in band order, then the point loops
//! in intra-tile order; the untiled code is its point loops in band order
//! over whole extents. For a cache of `C` bytes:
//! - the *footprint* of a reference below a loop level is the bytes its
//!   subscripts sweep there, in whole cache lines along the last subscript;
//! - reuse is captured at the outermost level whose footprint (summed over
//!   the references) fits in `C`: each execution of that level loads its
//!   footprint once;
//! - across the loop enclosing that level, a reference is charged only for
//!   what it adds (nothing if invariant, a fraction if it moves within a
//!   line), since the level's data stays cached between its executions.
//!
//! Conflict misses, prefetching and partial overlap between shifted
//! references (stencils) are ignored: this is a feature, not a simulator.

/// One loop of the modelled nest: the band member it advances, and how
/// many times it runs per execution of its enclosing loop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    pub member: usize,
    pub trips: f64,
}

/// The nest of a config: `tiles` per member (`None`: untiled), `order` the
/// intra-tile order of the members, `extents` their trip counts.
pub fn nest(extents: &[f64], tiles: Option<&[f64]>, order: &[usize]) -> Vec<Level> {
    match tiles {
        None => extents.iter().enumerate().map(|(member, &trips)| Level { member, trips }).collect(),
        Some(t) => {
            let tile = |m: usize| t[m].min(extents[m]).max(1.0);
            let tile_loops = (0..extents.len()).map(|m| Level { member: m, trips: (extents[m] / tile(m)).ceil() });
            let point_loops = order.iter().map(|&m| Level { member: m, trips: tile(m) });
            tile_loops.chain(point_loops).collect()
        }
    }
}

/// What the estimate needs to know about the statement and the machine.
pub struct Refs<'a> {
    /// Per distinct reference, per subscript, per band member: its step.
    pub spans: &'a [Vec<Vec<f64>>],
    pub element_bytes: f64,
    pub line: f64,
}

impl Refs<'_> {
    /// Bytes each reference sweeps below level `from` of `nest`.
    fn footprints(&self, nest: &[Level], extents: &[f64], from: usize) -> Vec<f64> {
        let range = |m: usize| {
            let swept: f64 = nest[from..].iter().filter(|l| l.member == m).map(|l| l.trips).product();
            swept.min(extents[m]).max(1.0)
        };
        let ranges: Vec<f64> = (0..extents.len()).map(range).collect();
        self.spans
            .iter()
            .map(|subs| {
                let elems: Vec<f64> = subs
                    .iter()
                    .map(|per| 1.0 + per.iter().zip(&ranges).map(|(s, r)| s * (r - 1.0)).sum::<f64>())
                    .collect();
                match elems.split_last() {
                    None => self.line,
                    Some((last, outer)) => {
                        outer.iter().product::<f64>() * (last * self.element_bytes / self.line).ceil() * self.line
                    }
                }
            })
            .collect()
    }

    /// Bytes a cache of `capacity` bytes loads while `nest` runs.
    pub fn traffic(&self, nest: &[Level], extents: &[f64], capacity: f64) -> f64 {
        let fits = |from: usize| self.footprints(nest, extents, from).iter().sum::<f64>() <= capacity;
        let star = (0..=nest.len()).find(|&l| fits(l)).unwrap_or(nest.len());
        if star == 0 {
            return self.footprints(nest, extents, 0).iter().sum();
        }
        let runs: f64 = nest[..star - 1].iter().map(|l| l.trips).product();
        let inner = self.footprints(nest, extents, star);
        let enclosing = self.footprints(nest, extents, star - 1);
        let trips = nest[star - 1].trips;
        inner.iter().zip(&enclosing).map(|(i, e)| (i * trips).min(*e)).sum::<f64>() * runs
    }

    /// Bytes of all data the nest touches (what any cache loads at least once).
    pub fn data(&self, nest: &[Level], extents: &[f64]) -> f64 {
        self.footprints(nest, extents, 0).iter().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// C[i][j] += A[i][k] * B[k][j] over members i, j, k.
    fn matmul() -> Vec<Vec<Vec<f64>>> {
        vec![
            vec![vec![1.0, 0.0, 0.0], vec![0.0, 1.0, 0.0]],
            vec![vec![1.0, 0.0, 0.0], vec![0.0, 0.0, 1.0]],
            vec![vec![0.0, 0.0, 1.0], vec![0.0, 1.0, 0.0]],
        ]
    }

    #[test]
    fn tiling_matmul_cuts_traffic_until_the_tile_outgrows_the_cache() {
        let spans = matmul();
        let refs = Refs { spans: &spans, element_bytes: 8.0, line: 64.0 };
        let n = [1024.0; 3];
        let order = [0, 2, 1];
        let l2 = 512.0 * 1024.0;
        let at = |t: Option<f64>| refs.traffic(&nest(&n, t.map(|t| [t; 3]).as_ref().map(|a| &a[..]), &order), &n, l2);
        let untiled = at(None);
        let (t64, t128, t512) = (at(Some(64.0)), at(Some(128.0)), at(Some(512.0)));
        assert!(t64 < untiled / 4.0, "64: {t64} against untiled {untiled}");
        // 3 x 128^2 doubles = 384 KiB fits, 3 x 512^2 = 6 MiB does not.
        assert!(t128 < t64, "128: {t128} against 64: {t64}");
        assert!(t512 > t128, "512: {t512} against 128: {t128}");
        // Everything touched at least once: 3 matrices.
        let data = refs.data(&nest(&n, None, &order), &n);
        assert_eq!(data, 3.0 * 1024.0 * 1024.0 * 8.0);
        assert!(t128 >= data);
    }

    #[test]
    fn data_that_fits_is_loaded_once() {
        let spans = matmul();
        let refs = Refs { spans: &spans, element_bytes: 8.0, line: 64.0 };
        let n = [32.0; 3];
        let t = refs.traffic(&nest(&n, None, &[0, 1, 2]), &n, 1e9);
        assert_eq!(t, 3.0 * 32.0 * 32.0 * 8.0);
    }

    #[test]
    fn a_column_walk_pays_a_line_per_element() {
        // y[i] += A[i][j] in order j, i (column walk) against i, j (row walk):
        // a cache too small to hold a column's lines reloads every line for
        // each of its 8 elements.
        let spans = vec![vec![vec![1.0, 0.0]], vec![vec![1.0, 0.0], vec![0.0, 1.0]]];
        let refs = Refs { spans: &spans, element_bytes: 8.0, line: 64.0 };
        let n = [4096.0, 4096.0];
        let rows = nest(&n, None, &[0, 1]);
        let columns = vec![Level { member: 1, trips: 4096.0 }, Level { member: 0, trips: 4096.0 }];
        let (by_row, by_column) = (refs.traffic(&rows, &n, 32768.0), refs.traffic(&columns, &n, 32768.0));
        assert!(by_column > 6.0 * by_row, "{by_column} against {by_row}");
    }
}
