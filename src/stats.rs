//! Summary statistics shared by the evaluation and the untiled gate.

/// Geometric mean (1 for no values: TN's neutral score). The mean of
/// time ratios such as TN: a pick 2x slower and one 2x faster cancel.
pub fn geo_mean(values: impl IntoIterator<Item = f64>) -> f64 {
    let (sum, n) = values.into_iter().fold((0.0, 0usize), |(s, n), v| (s + v.ln(), n + 1));
    if n == 0 { 1.0 } else { (sum / n as f64).exp() }
}

#[cfg(test)]
mod tests {
    use super::geo_mean;

    #[test]
    fn geo_mean_of_ratios() {
        assert_eq!(geo_mean([]), 1.0);
        assert!((geo_mean([2.0, 0.5]) - 1.0).abs() < 1e-12);
        assert!((geo_mean([1.0, 4.0]) - 2.0).abs() < 1e-12);
    }
}
