//! How an array reference moves when one schedule dimension advances.
//!
//! This is the analysis behind both the intra-tile loop order (put the loop
//! with the most stride-1 references innermost, as Pluto does) and the
//! paper's locality features (RP/RNP/RI, WP/WNP/WI).

use crate::frontend::{Access, Statement};

/// Effect of advancing a loop on one reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stride {
    /// The element does not change: temporal reuse.
    Invariant,
    /// Only the last (contiguous) subscript moves, by one: spatial reuse.
    Unit,
    /// Any other movement.
    Other,
}

/// Direction in iteration space of a unit step of schedule member `k`, for a
/// statement whose band rows are `rows` (one row of iterator coefficients
/// per member). Solves `rows * x = e_k`; `None` when the member does not move
/// this statement (no solution).
pub fn direction(rows: &[Vec<i64>], k: usize) -> Option<Vec<f64>> {
    let (d, n) = (rows.len(), rows.first().map_or(0, |r| r.len()));
    // Augmented matrix [rows | e_k], Gauss-Jordan over f64 (entries are tiny integers).
    let mut a: Vec<Vec<f64>> =
        (0..d).map(|r| rows[r].iter().map(|&v| v as f64).chain([if r == k { 1.0 } else { 0.0 }]).collect()).collect();
    let mut pivots = Vec::new();
    let mut row = 0;
    for col in 0..n {
        let Some(p) = (row..d).find(|&r| a[r][col].abs() > 1e-9) else { continue };
        a.swap(row, p);
        let pv = a[row][col];
        a[row].iter_mut().for_each(|v| *v /= pv);
        for r in 0..d {
            if r != row && a[r][col].abs() > 1e-9 {
                let f = a[r][col];
                let pivot_row = a[row].clone();
                for (v, p) in a[r].iter_mut().zip(&pivot_row) {
                    *v -= f * p;
                }
            }
        }
        pivots.push(col);
        row += 1;
    }
    if (row..d).any(|r| a[r][n].abs() > 1e-9) {
        return None;
    }
    let mut x = vec![0.0; n];
    for (r, &col) in pivots.iter().enumerate() {
        x[col] = a[r][n];
    }
    Some(x)
}

/// Classifies `access` of `stmt` for a step `dir` in iteration space.
pub fn classify(stmt: &Statement, access: &Access, dir: Option<&[f64]>) -> Stride {
    let Some(dir) = dir else { return Stride::Invariant };
    let mut deltas = Vec::new();
    for sub in &access.subscripts {
        let Some(lin) = sub.linear() else { return Stride::Other };
        let delta: f64 = stmt.iterators.iter().zip(dir).map(|(it, x)| lin.coeff(it) as f64 * x).sum();
        deltas.push(delta);
    }
    let zero = |v: &f64| v.abs() < 1e-9;
    match deltas.split_last() {
        None => Stride::Invariant,
        Some((last, rest)) if rest.iter().all(zero) && zero(last) => Stride::Invariant,
        Some((last, rest)) if rest.iter().all(zero) && (last.abs() - 1.0).abs() < 1e-9 => Stride::Unit,
        _ => Stride::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::parse_file;

    #[test]
    fn matmul_strides() {
        let src = "#pragma scop\nfor (i = 0; i < N; i++) for (j = 0; j < N; j++) for (k = 0; k < N; k++) C[i][j] += A[i][k] * B[k][j];\n#pragma endscop\n";
        let s = &parse_file(src).unwrap()[0].statements[0];
        let id = vec![vec![1, 0, 0], vec![0, 1, 0], vec![0, 0, 1]];
        let along = |k: usize| -> Vec<Stride> {
            let d = direction(&id, k);
            s.accesses.iter().map(|a| classify(s, a, d.as_deref())).collect()
        };
        use Stride::*;
        // accesses: C (read), C (write), A, B
        assert_eq!(along(2), vec![Invariant, Invariant, Unit, Other]);
        assert_eq!(along(1), vec![Unit, Unit, Invariant, Unit]);
        assert_eq!(along(0), vec![Other, Other, Other, Invariant]);
    }

    #[test]
    fn skewed_and_missing_members() {
        // s0 = t, s1 = t + i : advancing s1 alone moves i by one.
        let rows = vec![vec![1, 0], vec![1, 1]];
        assert_eq!(direction(&rows, 1), Some(vec![0.0, 1.0]));
        assert_eq!(direction(&rows, 0), Some(vec![1.0, -1.0]));
        // A statement with a constant member never moves along it.
        assert_eq!(direction(&[vec![1], vec![0]], 1), None);
    }
}
