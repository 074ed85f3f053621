//! The blended ranker: where a kernel's loop structure is new to the model,
//! candidates are ranked by the network and a quadratic linear estimate
//! together.
//!
//! Held out by kernel family, the network's first pick is 1.4-1.5x off the
//! best; a ridge regression of the same capped relative target on every
//! stored column and its square ranks about as well, and erring elsewhere,
//! the sum of the two rankings' z-scores picks 5-7 % better on two CPUs of
//! three (README, "A learned untiled gate"). On kernels the network trained
//! on, the blend only loses (it dilutes what the network learnt of that
//! kernel), so it applies only where the instance's structure signature
//! (the size-independent columns of its untiled row: loop structure,
//! locality counts, depth, element size, source strides) matches no
//! training instance's. A kernel's signature does not change with its sizes.

use serde::{Deserialize, Serialize};

use crate::dataset::{Record, STORED, candidates_by_instance};
use crate::features::FeatureSet;
use crate::harness::UNTILED;
use crate::model::linear::Linear;

/// Ridge penalty of the ranker's estimate (held-out picks were level from 1
/// to 100).
pub const LAMBDA: f64 = 10.0;

/// The fitted ranker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ranker {
    /// Estimate of `min(ln(time / fastest), ln cap)` from a candidate's
    /// stored features and their squares.
    pub linear: Linear,
    /// Structure signatures of the training instances, sorted, one each.
    pub known: Vec<Vec<f64>>,
}

/// Whether a stored column belongs to the structure signature: those that
/// describe the loops and references, not the sizes or the config.
fn in_signature(name: &str) -> bool {
    ["LOOP", "L1_", "L2_", "L3_"].iter().any(|p| name.starts_with(p))
        || ["DEPTH", "ELEM_BYTES", "SRC_UNIT", "SRC_STRIDED", "SRC_REDUCTIONS", "SKEWED"].contains(&name)
}

/// Whether a column describes the kernel's loops and references alone,
/// whatever its sizes and config: the signature's columns and the count of
/// reads (`ON`). Such a column far outside the training range marks a new
/// kind of code, which the blend and the gate handle, not sizes the network
/// extrapolates to ([`crate::model::saved::SavedModel::distrust`]).
pub fn describes_structure(name: &str) -> bool {
    in_signature(name) || name == "ON"
}

/// The structure signature of an untiled row's stored features (`None` for
/// a vector of another length).
pub fn signature(stored: &[f64]) -> Option<Vec<f64>> {
    let names = STORED.names();
    (stored.len() == names.len())
        .then(|| names.iter().zip(stored).filter(|(n, _)| in_signature(n)).map(|(_, v)| *v).collect())
}

/// Standard scores of `v` (all 0 when it does not vary).
fn z_scores(v: &[f64]) -> Vec<f64> {
    let n = v.len().max(1) as f64;
    let mean = v.iter().sum::<f64>() / n;
    let sd = (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
    v.iter().map(|x| if sd > 0.0 { (x - mean) / sd } else { 0.0 }).collect()
}

/// The blend of the network's `predicted` values and the ranker's
/// `estimates` of the same candidates: the sum of their z-scores (`None`
/// when their lengths differ).
pub fn sum_of_z_scores(predicted: &[f64], estimates: &[f64]) -> Option<Vec<f64>> {
    (predicted.len() == estimates.len())
        .then(|| z_scores(predicted).iter().zip(z_scores(estimates)).map(|(a, b)| a + b).collect())
}

impl Ranker {
    /// The ranker of the training rows `records` for a model of `set`
    /// trained with the target capped at `cap`: every candidate row of
    /// `set` that carries the stored columns, its target relative to its
    /// instance's fastest. `None` without two such rows.
    pub fn fit(records: &[Record], set: FeatureSet, cap: f64) -> Option<Ranker> {
        let (mut x, mut y, mut known) = (Vec::new(), Vec::new(), Vec::new());
        for rows in candidates_by_instance(records, set).values() {
            let rows: Vec<&Record> = rows.iter().copied().filter(|r| r.features.len() >= STORED.len()).collect();
            if rows.is_empty() {
                continue;
            }
            let best = rows.iter().filter_map(|r| r.time_median).fold(f64::INFINITY, f64::min);
            for r in &rows {
                let Some(t) = r.time_median else { continue };
                x.push(r.features_of(STORED).to_vec());
                y.push((t / best).ln().min(cap.ln()));
            }
            let first = rows.iter().find(|r| r.tile == UNTILED).unwrap_or(&rows[0]);
            known.extend(signature(first.features_of(STORED)));
        }
        known.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
        known.dedup();
        Some(Ranker { linear: Linear::fit(STORED, &x, &y, LAMBDA, true)?, known })
    }

    /// Whether to blend for an instance whose untiled row has these stored
    /// features: only where its structure is new (unknown: no blend).
    pub fn applies(&self, untiled: Option<&[f64]>) -> bool {
        untiled.and_then(signature).is_some_and(|s| !self.known.contains(&s))
    }

    /// Scores to rank candidates by, lowest first: the z-scores of the
    /// network's `predicted` values plus those of the estimates from the
    /// candidates' `stored` features. `None` if a vector is not of the
    /// stored set's length.
    pub fn blend(&self, predicted: &[f64], stored: &[Vec<f64>]) -> Option<Vec<f64>> {
        sum_of_z_scores(predicted, &self.estimates(stored)?)
    }

    /// The linear estimate of each candidate's stored features (`None`
    /// when a row is not of the stored length).
    pub fn estimates(&self, stored: &[Vec<f64>]) -> Option<Vec<f64>> {
        if stored.iter().any(|s| s.len() != STORED.len()) {
            return None;
        }
        Some(stored.iter().map(|s| self.linear.estimate(s)).collect())
    }

    /// One line for reports.
    pub fn describe(&self) -> String {
        format!(
            "blends the network's ranking with a quadratic ridge estimate ({} inputs) where the loop structure is not \
             one of the {} it trained on",
            self.linear.mean.len(),
            self.known.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_keeps_the_structure_and_drops_sizes_and_configs() {
        let names = STORED.names();
        let mut a: Vec<f64> = (0..names.len()).map(|i| i as f64).collect();
        let sig = signature(&a).expect("the stored length");
        assert!(sig.len() > 10 && sig.len() < names.len());
        for (k, n) in names.iter().enumerate() {
            if matches!(*n, "PS1" | "TS" | "LOG_ITERS" | "WS_L1") {
                a[k] += 100.0;
            }
        }
        assert_eq!(signature(&a), Some(sig.clone()), "sizes and tiles are not structure");
        let depth = names.iter().position(|n| *n == "DEPTH").unwrap();
        a[depth] += 1.0;
        assert_ne!(signature(&a), Some(sig));
        assert_eq!(signature(&[1.0]), None);
    }

    #[test]
    fn blends_only_where_the_structure_is_new() {
        let d = STORED.len();
        let linear =
            Linear::fit(STORED, &[vec![0.0; d], vec![1.0; d], vec![2.0; d]], &[0.0, 1.0, 2.0], 1e-6, true).unwrap();
        let known_row = vec![0.0; d];
        let r = Ranker { linear, known: vec![signature(&known_row).unwrap()] };
        assert!(!r.applies(Some(&known_row)));
        assert!(r.applies(Some(&vec![5.0; d])));
        assert!(!r.applies(None) && !r.applies(Some(&[1.0])));
        // The network prefers the second candidate, the estimate the first
        // by more: the blend follows the sum of the standard scores.
        let stored = vec![vec![0.0; d], vec![1.0; d], vec![2.0; d]];
        let s = r.blend(&[0.4, 0.0, 1.0], &stored).unwrap();
        assert!(s[0] < s[1] && s[1] < s[2], "{s:?}");
        assert_eq!(r.blend(&[0.0], &stored), None);
    }
}
