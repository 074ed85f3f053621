//! A per-machine correction of a frozen model: a linear term in the
//! model's normalised inputs, added to its output before decoding.
//!
//! Fine-tuning moves every weight of the networks with a few hundred
//! instances' rows, and its validation (a quarter of them) is too noisy to
//! say when it helps. A machine mostly shifts *where* the optimum lies
//! along a few directions (larger caches favour larger working sets, a
//! wider vector unit longer innermost tiles), which a linear term in the
//! inputs the model already reads can express with 55 numbers. It is fitted
//! in closed form (ridge regression on the model's residuals, centred
//! within each instance because only the ranking inside an instance
//! matters), and its penalty is chosen by cross-validation over instances
//! on the quality of the configs it would pick, with "no correction" among
//! the choices: fewer rows than it needs leave the model as it was.

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use crate::model::linear::cholesky_solve;

/// Added to a model's output (its encoded target) for normalised inputs `z`:
/// `weights · z`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Correction {
    pub weights: Vec<f64>,
    /// Ridge penalty per row, chosen by cross-validation.
    pub ridge: f64,
    /// Cross-validated mean log time ratio of the picked config to the
    /// instance's fastest timed one: without, then with the correction.
    pub cv_before: f64,
    pub cv_after: f64,
}

impl Correction {
    pub fn offset(&self, z: &[f32]) -> f32 {
        self.weights.iter().zip(z).map(|(w, &v)| w * f64::from(v)).sum::<f64>() as f32
    }
}

/// One timed candidate: normalised inputs, the frozen model's output, the
/// encoded measured target, and its instance.
pub struct Row<'a> {
    pub z: &'a [f32],
    pub base: f32,
    pub y: f32,
    pub group: &'a str,
}

/// Penalties tried, per row of the fold's training part (scale-free: the
/// inputs lie in [0, 1]).
const RIDGES: [f64; 7] = [1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 1e-1];
const FOLDS: usize = 4;

/// The correction that picks best across `FOLDS` folds of instances, or
/// `None` when no penalty beats the model alone (or there are too few
/// instances to tell).
pub fn fit(rows: &[Row], seed: u64) -> Option<Correction> {
    let groups = by_instance(rows);
    if groups.len() < 2 * FOLDS {
        return None;
    }
    let mut order: Vec<usize> = (0..groups.len()).collect();
    order.shuffle(&mut StdRng::seed_from_u64(seed));
    let fold_of: Vec<usize> = {
        let mut f = vec![0; groups.len()];
        for (k, &g) in order.iter().enumerate() {
            f[g] = k % FOLDS;
        }
        f
    };
    let zero = vec![0.0; rows[0].z.len()];
    let before = groups.iter().map(|g| pick_loss(rows, g, &zero)).sum::<f64>() / groups.len() as f64;
    // Each instance's normal equations once; each fold's training part sums
    // them, and every penalty reuses the sums.
    let parts: Vec<Normal> = groups.iter().map(|g| Normal::of(rows, g)).collect();
    let train_of: Vec<Normal> = (0..FOLDS)
        .map(|fold| Normal::sum(parts.iter().zip(&fold_of).filter(|(_, f)| **f != fold).map(|p| p.0)))
        .collect();
    let mut best: Option<(f64, f64)> = None;
    for ridge in RIDGES {
        let mut total = 0.0;
        for (fold, train) in train_of.iter().enumerate() {
            let w = train.solve(ridge)?;
            total += groups
                .iter()
                .zip(&fold_of)
                .filter(|(_, f)| **f == fold)
                .map(|(g, _)| pick_loss(rows, g, &w))
                .sum::<f64>();
        }
        let cv = total / groups.len() as f64;
        if best.is_none_or(|b| cv < b.1) {
            best = Some((ridge, cv));
        }
    }
    let (ridge, after) = best?;
    if after >= before {
        return None;
    }
    Some(Correction { weights: Normal::sum(parts.iter()).solve(ridge)?, ridge, cv_before: before, cv_after: after })
}

/// Row indices grouped by instance, in a fixed order.
fn by_instance(rows: &[Row]) -> Vec<Vec<usize>> {
    let mut by: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, r) in rows.iter().enumerate() {
        by.entry(r.group).or_default().push(i);
    }
    by.into_values().filter(|g| g.len() > 1).collect()
}

/// The log time ratio of the config the corrected model ranks first in
/// instance `g` to the instance's fastest (targets are log times up to a
/// constant per instance, so their difference is the log ratio).
fn pick_loss(rows: &[Row], g: &[usize], w: &[f64]) -> f64 {
    let score = |i: usize| f64::from(rows[i].base) + dot(w, rows[i].z);
    let pick = g.iter().copied().min_by(|&a, &b| score(a).total_cmp(&score(b))).expect("groups are not empty");
    let best = g.iter().map(|&i| rows[i].y).fold(f32::INFINITY, f32::min);
    f64::from(rows[pick].y - best)
}

fn dot(w: &[f64], z: &[f32]) -> f64 {
    w.iter().zip(z).map(|(a, &b)| a * f64::from(b)).sum()
}

/// The normal equations `ZᵀZ w = Zᵀr` of a ridge regression of the
/// residuals (target minus model) on the inputs, both centred within each
/// instance, over `n` rows.
struct Normal {
    a: Vec<Vec<f64>>,
    b: Vec<f64>,
    n: usize,
}

impl Normal {
    /// One instance's rows `g`.
    fn of(rows: &[Row], g: &[usize]) -> Normal {
        let d = rows[0].z.len();
        let (mut a, mut b) = (vec![vec![0.0; d]; d], vec![0.0; d]);
        let m = g.len() as f64;
        let mean_z: Vec<f64> = (0..d).map(|k| g.iter().map(|&i| f64::from(rows[i].z[k])).sum::<f64>() / m).collect();
        let mean_r = g.iter().map(|&i| f64::from(rows[i].y - rows[i].base)).sum::<f64>() / m;
        for &i in g {
            let z: Vec<f64> = (0..d).map(|k| f64::from(rows[i].z[k]) - mean_z[k]).collect();
            let r = f64::from(rows[i].y - rows[i].base) - mean_r;
            for ((row, bp), zp) in a.iter_mut().zip(b.iter_mut()).zip(&z) {
                *bp += zp * r;
                for (cell, zq) in row.iter_mut().zip(&z) {
                    *cell += zp * zq;
                }
            }
        }
        Normal { a, b, n: g.len() }
    }

    /// The equations of the union of disjoint row sets.
    fn sum<'a>(parts: impl Iterator<Item = &'a Normal>) -> Normal {
        let mut total: Option<Normal> = None;
        for p in parts {
            match &mut total {
                None => total = Some(Normal { a: p.a.clone(), b: p.b.clone(), n: p.n }),
                Some(t) => {
                    for (row, prow) in t.a.iter_mut().zip(&p.a) {
                        row.iter_mut().zip(prow).for_each(|(x, y)| *x += y);
                    }
                    t.b.iter_mut().zip(&p.b).for_each(|(x, y)| *x += y);
                    t.n += p.n;
                }
            }
        }
        total.expect("every fold trains on some instances")
    }

    /// `(ZᵀZ + ridge·n·I) w = Zᵀr`. `None` if the system is singular (it is
    /// not for a positive penalty, short of NaN inputs).
    fn solve(&self, ridge: f64) -> Option<Vec<f64>> {
        let mut a = self.a.clone();
        for (p, row) in a.iter_mut().enumerate() {
            row[p] += ridge * self.n as f64;
        }
        cholesky_solve(a, self.b.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cholesky_solves_a_small_system() {
        let a = vec![vec![4.0, 2.0, 0.6], vec![2.0, 5.0, 1.0], vec![0.6, 1.0, 3.0]];
        let x = [1.0, -2.0, 0.5];
        let b: Vec<f64> = a.iter().map(|r: &Vec<f64>| r.iter().zip(&x).map(|(p, q)| p * q).sum()).collect();
        let got = cholesky_solve(a, b).unwrap();
        assert!(got.iter().zip(&x).all(|(g, w)| (g - w).abs() < 1e-9), "{got:?}");
        assert!(cholesky_solve(vec![vec![0.0]], vec![1.0]).is_none());
    }

    /// Instances of 8 configs `c` in [0, 1] whose time is least at `c = 0.7`
    /// on this machine, for a model that believes it least at `c = 0.3`.
    fn shifted(instances: usize) -> (Vec<Vec<f32>>, Vec<f32>, Vec<f32>, Vec<String>) {
        let (mut z, mut base, mut y, mut g) = (vec![], vec![], vec![], vec![]);
        for inst in 0..instances {
            let noise = 0.01 * (inst % 3) as f32;
            for k in 0..8 {
                let c = k as f32 / 7.0 + noise;
                z.push(vec![c, 0.5]);
                base.push((c - 0.3) * (c - 0.3));
                y.push((c - 0.7) * (c - 0.7));
                g.push(format!("i{inst}"));
            }
        }
        (z, base, y, g)
    }

    fn rows<'a>(z: &'a [Vec<f32>], base: &[f32], y: &[f32], g: &'a [String]) -> Vec<Row<'a>> {
        (0..z.len()).map(|i| Row { z: &z[i], base: base[i], y: y[i], group: &g[i] }).collect()
    }

    #[test]
    fn a_shifted_optimum_is_corrected_and_picks_move_to_it() {
        let (z, base, y, g) = shifted(40);
        let c = fit(&rows(&z, &base, &y, &g), 7).expect("the shift is learnable");
        assert!(c.cv_after < c.cv_before, "{c:?}");
        // The corrected model now ranks c = 6/7 or 5/7 first, not 2/7.
        let score = |k: usize| base[k] + c.offset(&z[k]);
        let pick = (0..8).min_by(|&a, &b| score(a).total_cmp(&score(b))).unwrap();
        assert!((4..=6).contains(&pick), "picked config {pick}: {c:?}");
    }

    #[test]
    fn a_model_already_right_stays_uncorrected() {
        let (z, _, y, g) = shifted(40);
        assert!(fit(&rows(&z, &y, &y, &g), 7).is_none());
        // Too few instances to cross-validate: no correction either.
        let (z, base, y, g) = shifted(5);
        assert!(fit(&rows(&z, &base, &y, &g), 7).is_none());
    }
}
