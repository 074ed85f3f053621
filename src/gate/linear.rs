//! A linear estimate of how the untiled original compares with the best
//! tile: ridge regression from the untiled candidate's feature vector to
//! `ln(untiled time / fastest tiled time)`, fitted on one machine's training
//! instances.
//!
//! The rules of [`super::Rule`] see four traits; this sees every column the
//! rows store (sizes, locality, traffic, the source loops' strides), so it
//! can weigh a stencil's many stride-1 references against a matrix-vector
//! product's data size without a rule per kind. Held out by family it
//! catches nests the network never ranks first untiled (README, "A learned
//! untiled gate").

use serde::{Deserialize, Serialize};

use crate::features::FeatureSet;

/// Ridge penalty on the standardised weights: enough to keep collinear
/// columns (extents and their logs) from cancelling out, little enough not
/// to shrink the few that matter (held-out results are level from 0.1 to 10).
pub const LAMBDA: f64 = 1.0;

/// Columns whose spread over the training instances is below this are
/// constant there and get no weight: a value they take elsewhere says
/// nothing the fit could have learnt.
const FLAT: f64 = 1e-9;

/// A fitted estimate: `bias + sum_j weight_j * (x_j - mean_j) / scale_j`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Linear {
    /// The feature set whose vector of the untiled candidate it reads.
    pub set: FeatureSet,
    pub mean: Vec<f64>,
    pub scale: Vec<f64>,
    pub weights: Vec<f64>,
    pub bias: f64,
}

impl Linear {
    /// The estimated `ln(untiled / fastest tile)`: below 0, the original is
    /// expected to beat every tile. Non-finite inputs count as the mean.
    pub fn estimate(&self, x: &[f64]) -> f64 {
        let terms = x.iter().zip(&self.mean).zip(&self.scale).zip(&self.weights);
        self.bias
            + terms
                .filter(|(((v, _), s), _)| v.is_finite() && **s > 0.0)
                .map(|(((v, m), s), w)| w * (v - m) / s)
                .sum::<f64>()
    }

    /// Ridge regression of `y` on `x` (one row per training instance, all of
    /// `set`'s length), each column standardised and the bias unpenalised.
    /// `None` with fewer than two rows or rows of unequal length.
    pub fn fit(set: FeatureSet, x: &[Vec<f64>], y: &[f64], lambda: f64) -> Option<Linear> {
        let (n, d) = (x.len(), set.len());
        if n < 2 || y.len() != n || x.iter().any(|r| r.len() != d || r.iter().any(|v| !v.is_finite())) {
            return None;
        }
        let mean: Vec<f64> = (0..d).map(|j| x.iter().map(|r| r[j]).sum::<f64>() / n as f64).collect();
        let spread = |j: usize| (x.iter().map(|r| (r[j] - mean[j]).powi(2)).sum::<f64>() / n as f64).sqrt();
        let scale: Vec<f64> = (0..d).map(|j| Some(spread(j)).filter(|&s| s > FLAT).unwrap_or(0.0)).collect();
        let z = |r: &Vec<f64>, j: usize| if scale[j] > 0.0 { (r[j] - mean[j]) / scale[j] } else { 0.0 };
        let bias = y.iter().sum::<f64>() / n as f64;
        // Normal equations of the centred problem: (Z'Z + lambda I) w = Z'(y - bias).
        let mut a = vec![vec![0.0; d]; d];
        let mut b = vec![0.0; d];
        for (r, &t) in x.iter().zip(y) {
            let zr: Vec<f64> = (0..d).map(|j| z(r, j)).collect();
            for j in 0..d {
                b[j] += zr[j] * (t - bias);
                for k in 0..=j {
                    a[j][k] += zr[j] * zr[k];
                }
            }
        }
        // Only the lower triangle was summed, and only it is read below.
        for (j, row) in a.iter_mut().enumerate() {
            row[j] += lambda;
        }
        let weights = cholesky_solve(a, b)?;
        Some(Linear { set, mean, scale, weights, bias })
    }

    /// The columns of most weight, strongest first, for reports.
    pub fn strongest(&self, k: usize) -> Vec<(&'static str, f64)> {
        let mut named: Vec<(&'static str, f64)> =
            self.set.names().into_iter().zip(self.weights.iter().copied()).filter(|(_, w)| *w != 0.0).collect();
        named.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()));
        named.truncate(k);
        named
    }
}

/// Solves `a x = b` for a symmetric positive definite `a` (the ridge normal
/// equations always are); `None` if a pivot vanishes.
fn cholesky_solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let d = b.len();
    // a becomes L (lower triangle), a = L L'.
    for j in 0..d {
        let diag = a[j][j] - (0..j).map(|k| a[j][k] * a[j][k]).sum::<f64>();
        if diag <= 0.0 || !diag.is_finite() {
            return None;
        }
        a[j][j] = diag.sqrt();
        for i in j + 1..d {
            a[i][j] = (a[i][j] - (0..j).map(|k| a[i][k] * a[j][k]).sum::<f64>()) / a[j][j];
        }
    }
    for i in 0..d {
        b[i] = (b[i] - (0..i).map(|k| a[i][k] * b[k]).sum::<f64>()) / a[i][i];
    }
    for i in (0..d).rev() {
        b[i] = (b[i] - (i + 1..d).map(|k| a[k][i] * b[k]).sum::<f64>()) / a[i][i];
    }
    Some(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows of `set`'s length with `cols` set and the rest zero.
    fn row(set: FeatureSet, cols: &[(usize, f64)]) -> Vec<f64> {
        let mut r = vec![0.0; set.len()];
        for &(j, v) in cols {
            r[j] = v;
        }
        r
    }

    #[test]
    fn recovers_a_linear_law_and_ignores_flat_columns() {
        let set = FeatureSet::Paper;
        // y = 2 - 0.5 * x0 + 0.25 * x3; column 5 is flat in training.
        let x: Vec<Vec<f64>> =
            (0..40).map(|i| row(set, &[(0, (i % 7) as f64), (3, (i / 5) as f64 * 1.5), (5, 4.0)])).collect();
        let y: Vec<f64> = x.iter().map(|r| 2.0 - 0.5 * r[0] + 0.25 * r[3]).collect();
        let m = Linear::fit(set, &x, &y, 1e-6).expect("a fit");
        let probe = row(set, &[(0, 3.0), (3, 6.0), (5, 1e6)]);
        assert!((m.estimate(&probe) - (2.0 - 1.5 + 1.5)).abs() < 1e-4, "{}", m.estimate(&probe));
        assert_eq!(m.scale[5], 0.0);
        assert_eq!(m.weights[5], 0.0);
        let top: Vec<&str> = m.strongest(2).into_iter().map(|(n, _)| n).collect();
        assert_eq!(top.len(), 2);
        assert!(top.contains(&set.names()[0]) && top.contains(&set.names()[3]));
    }

    #[test]
    fn the_penalty_shrinks_towards_the_mean() {
        let set = FeatureSet::Paper;
        let x: Vec<Vec<f64>> = (0..10).map(|i| row(set, &[(1, i as f64)])).collect();
        let y: Vec<f64> = (0..10).map(|i| i as f64).collect();
        let free = Linear::fit(set, &x, &y, 1e-9).unwrap();
        let tight = Linear::fit(set, &x, &y, 1e6).unwrap();
        let probe = row(set, &[(1, 9.0)]);
        assert!((free.estimate(&probe) - 9.0).abs() < 1e-6);
        assert!((tight.estimate(&probe) - 4.5).abs() < 0.01, "{}", tight.estimate(&probe));
    }

    #[test]
    fn no_fit_without_rows_or_with_bad_ones() {
        let set = FeatureSet::Paper;
        assert_eq!(Linear::fit(set, &[], &[], 1.0), None);
        assert_eq!(Linear::fit(set, &[row(set, &[])], &[0.0], 1.0), None);
        let bad = vec![row(set, &[(0, f64::NAN)]), row(set, &[])];
        assert_eq!(Linear::fit(set, &bad, &[0.0, 1.0], 1.0), None);
        assert_eq!(Linear::fit(set, &[vec![1.0], vec![2.0]], &[0.0, 1.0], 1.0), None);
    }
}
