//! Summary statistics shared by the evaluation and the untiled gate.

/// Geometric mean (1 for no values: TN's neutral score). The mean of
/// time ratios such as TN: a pick 2x slower and one 2x faster cancel.
pub fn geo_mean(values: impl IntoIterator<Item = f64>) -> f64 {
    let (sum, n) = values.into_iter().fold((0.0, 0usize), |(s, n), v| (s + v.ln(), n + 1));
    if n == 0 { 1.0 } else { (sum / n as f64).exp() }
}

/// The median (`None` for no values).
pub fn median(values: &[f64]) -> Option<f64> {
    let mut t = values.to_vec();
    t.sort_by(f64::total_cmp);
    let n = t.len();
    (n > 0).then(|| if n % 2 == 1 { t[n / 2] } else { (t[n / 2 - 1] + t[n / 2]) / 2.0 })
}

#[cfg(test)]
mod tests {
    use super::{geo_mean, median};

    #[test]
    fn medians() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0]), Some(2.5));
    }

    #[test]
    fn geo_mean_of_ratios() {
        assert_eq!(geo_mean([]), 1.0);
        assert!((geo_mean([2.0, 0.5]) - 1.0).abs() < 1e-12);
        assert!((geo_mean([1.0, 4.0]) - 2.0).abs() < 1e-12);
    }
}
