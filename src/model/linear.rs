//! Ridge regression on a feature set's columns (and, optionally, their
//! squares), solved in closed form.
//!
//! Two models beside the network use it:
//! - the untiled gate's estimate of `ln(untiled time / fastest tiled time)`
//!   from the untiled candidate's features ([`crate::gate`]). The gate's
//!   rules see four traits; this sees every column the rows store (sizes,
//!   locality, traffic, the source loops' strides), so it can weigh a
//!   stencil's many stride-1 references against a matrix-vector product's
//!   data size without a rule per kind;
//! - the blended ranker's estimate of each candidate's capped relative time
//!   ([`crate::model::ranker`]), quadratic so that it can place an optimum
//!   inside a range of tile sizes.
//!
//! Being linear in few inputs, both extrapolate to kernel families the
//! network never saw more gently than the network does (README, "A learned
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

/// A fitted estimate: `bias + sum_j weight_j * (x_j - mean_j) / scale_j`
/// over the inputs `x` (the vector of `set`, then, if `quadratic`, the
/// square of each of its values).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Linear {
    /// The feature set whose vector it reads.
    pub set: FeatureSet,
    #[serde(default)]
    pub quadratic: bool,
    pub mean: Vec<f64>,
    pub scale: Vec<f64>,
    pub weights: Vec<f64>,
    pub bias: f64,
}

impl Linear {
    /// The estimate for the feature vector `x` (of `set`'s length; the
    /// squares are taken here). Non-finite inputs count as the mean.
    pub fn estimate(&self, x: &[f64]) -> f64 {
        let x = inputs(x, self.quadratic);
        let terms = x.iter().zip(&self.mean).zip(&self.scale).zip(&self.weights);
        self.bias
            + terms
                .filter(|(((v, _), s), _)| v.is_finite() && **s > 0.0)
                .map(|(((v, m), s), w)| w * (v - m) / s)
                .sum::<f64>()
    }

    /// Ridge regression of `y` on `x` (one row per sample, all of `set`'s
    /// length; with `quadratic`, on their squares too), each input
    /// standardised and the bias unpenalised. `None` with fewer than two
    /// rows, rows of another length or values that are not finite.
    pub fn fit(set: FeatureSet, x: &[Vec<f64>], y: &[f64], lambda: f64, quadratic: bool) -> Option<Linear> {
        let n = x.len();
        if n < 2 || y.len() != n || x.iter().any(|r| r.len() != set.len() || r.iter().any(|v| !v.is_finite())) {
            return None;
        }
        let x: Vec<Vec<f64>> = x.iter().map(|r| inputs(r, quadratic)).collect();
        let d = x[0].len();
        let x = &x;
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
        Some(Linear { set, quadratic, mean, scale, weights, bias })
    }

    /// The columns of most weight, strongest first, for reports.
    pub fn strongest(&self, k: usize) -> Vec<(String, f64)> {
        let names = self.set.names();
        let squares = names.iter().map(|n| format!("{n}^2")).take(if self.quadratic { names.len() } else { 0 });
        let all = names.iter().map(|n| n.to_string()).chain(squares);
        let mut named: Vec<(String, f64)> = all.zip(self.weights.iter().copied()).filter(|(_, w)| *w != 0.0).collect();
        named.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()));
        named.truncate(k);
        named
    }
}

/// The inputs of a feature vector: itself, then with `quadratic` the
/// square of each value.
fn inputs(x: &[f64], quadratic: bool) -> Vec<f64> {
    let squares = x.iter().map(|v| v * v).take(if quadratic { x.len() } else { 0 });
    x.iter().copied().chain(squares).collect()
}

/// Solves `a x = b` for a symmetric positive definite `a` (the ridge normal
/// equations always are), reading only its lower triangle; `None` if a
/// pivot vanishes.
pub(crate) fn cholesky_solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
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
        let m = Linear::fit(set, &x, &y, 1e-6, false).expect("a fit");
        let probe = row(set, &[(0, 3.0), (3, 6.0), (5, 1e6)]);
        assert!((m.estimate(&probe) - (2.0 - 1.5 + 1.5)).abs() < 1e-4, "{}", m.estimate(&probe));
        assert_eq!(m.scale[5], 0.0);
        assert_eq!(m.weights[5], 0.0);
        let top: Vec<String> = m.strongest(2).into_iter().map(|(n, _)| n).collect();
        assert_eq!(top.len(), 2);
        assert!(top.contains(&set.names()[0].to_string()) && top.contains(&set.names()[3].to_string()));
    }

    #[test]
    fn the_penalty_shrinks_towards_the_mean() {
        let set = FeatureSet::Paper;
        let x: Vec<Vec<f64>> = (0..10).map(|i| row(set, &[(1, i as f64)])).collect();
        let y: Vec<f64> = (0..10).map(|i| i as f64).collect();
        let free = Linear::fit(set, &x, &y, 1e-9, false).unwrap();
        let tight = Linear::fit(set, &x, &y, 1e6, false).unwrap();
        let probe = row(set, &[(1, 9.0)]);
        assert!((free.estimate(&probe) - 9.0).abs() < 1e-6);
        assert!((tight.estimate(&probe) - 4.5).abs() < 0.01, "{}", tight.estimate(&probe));
    }

    #[test]
    fn no_fit_without_rows_or_with_bad_ones() {
        let set = FeatureSet::Paper;
        assert_eq!(Linear::fit(set, &[], &[], 1.0, false), None);
        assert_eq!(Linear::fit(set, &[row(set, &[])], &[0.0], 1.0, false), None);
        let bad = vec![row(set, &[(0, f64::NAN)]), row(set, &[])];
        assert_eq!(Linear::fit(set, &bad, &[0.0, 1.0], 1.0, false), None);
        assert_eq!(Linear::fit(set, &[vec![1.0], vec![2.0]], &[0.0, 1.0], 1.0, false), None);
    }

    #[test]
    fn a_quadratic_fit_places_an_optimum_inside_the_range() {
        // y = (x0 - 3)^2: fastest in the middle, which no line can say.
        let set = FeatureSet::Paper;
        let x: Vec<Vec<f64>> = (0..13).map(|i| row(set, &[(0, i as f64 * 0.5)])).collect();
        let y: Vec<f64> = x.iter().map(|r| (r[0] - 3.0).powi(2)).collect();
        let m = Linear::fit(set, &x, &y, 1e-9, true).expect("a fit");
        let at = |v: f64| m.estimate(&row(set, &[(0, v)]));
        assert!(at(3.0) < at(1.0) && at(3.0) < at(5.0));
        assert!((at(3.0)).abs() < 1e-6 && (at(5.0) - 4.0).abs() < 1e-6, "{} {}", at(3.0), at(5.0));
        assert_eq!(m.strongest(1)[0].0, format!("{}^2", set.names()[0]));
    }
}
