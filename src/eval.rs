//! The paper's evaluation (section 4.3) on measured test instances.
//!
//! For each instance every candidate was timed, so each method's choice has
//! a measured time: T1 takes the lowest prediction, T6-Random the expected
//! time over the kept 10 % (the mean), T6-Search the fastest kept one, and
//! "tile 32" is Pluto's default. Against the exhaustive best T_O and the
//! untiled baseline T_B: normalised time TN = T_M / T_O, speedup
//! S = T_B / T_M, maximum available performance MAP = (T_B - T_M) / (T_B - T_O),
//! and performance improvement over tile 32, PI = (S - S_32) / S_32.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::dataset::Record;
use crate::harness::Status;
use crate::model::saved::SavedModel;
use crate::select::keep_best;

pub const METHODS: [&str; 5] = ["T1", "T6-Random", "T6-Search", "tile 32", "best"];

/// One method on one instance.
#[derive(Clone, Debug, Serialize)]
pub struct Score {
    pub time: f64,
    pub tn: f64,
    pub speedup: Option<f64>,
    pub map: Option<f64>,
}

/// Everything measured and chosen for one test instance.
#[derive(Clone, Debug, Serialize)]
pub struct InstanceEval {
    pub kernel: String,
    pub sizes: String,
    pub best: f64,
    pub baseline: Option<f64>,
    /// Method name -> score (see [`METHODS`]).
    pub scores: BTreeMap<String, Score>,
    /// (tile, measured, predicted) of every candidate, for plots.
    pub candidates: Vec<(String, f64, f64)>,
    pub t1_tile: String,
}

/// Mean of each metric per method.
#[derive(Clone, Debug, Serialize, Default)]
pub struct Summary {
    pub instances: usize,
    /// Instances where MAP is defined: tiling beats the untiled code (T_B > T_O).
    pub map_instances: usize,
    pub tn: f64,
    pub speedup: Option<f64>,
    pub map: Option<f64>,
    /// PI over tile 32, in percent, from the mean speedups.
    pub pi: Option<f64>,
}

/// Evaluates `model` on every instance of `records` (rows of one mode).
pub fn evaluate(model: &SavedModel, records: &[Record]) -> Vec<InstanceEval> {
    let set = model.feature_set();
    let mut groups: BTreeMap<(String, String), Vec<&Record>> = BTreeMap::new();
    for r in records {
        groups.entry((r.kernel.clone(), r.sizes.clone())).or_default().push(r);
    }
    let mut out = Vec::new();
    for ((kernel, sizes), rows) in groups {
        let cands: Vec<&Record> = rows
            .iter()
            .copied()
            .filter(|r| {
                r.status == Status::Ok
                    && r.tile != "untiled"
                    && r.time_median.is_some()
                    && r.features.len() >= set.len()
            })
            .collect();
        if cands.is_empty() {
            continue;
        }
        let times: Vec<f64> = cands.iter().map(|r| r.time_median.unwrap_or(f64::NAN)).collect();
        let feats: Vec<Vec<f64>> = cands.iter().map(|r| r.features_of(set).to_vec()).collect();
        let pred = model.predict(&feats);
        let best = times.iter().copied().fold(f64::INFINITY, f64::min);
        let baseline = rows.iter().find(|r| r.tile == "untiled" && r.status == Status::Ok).and_then(|r| r.time_median);
        let kept = keep_best(&pred);
        let score = |t: f64| Score {
            time: t,
            tn: t / best,
            speedup: baseline.map(|b| b / t),
            map: baseline.filter(|&b| b > best).map(|b| 100.0 * (b - t) / (b - best)),
        };
        let mut scores = BTreeMap::new();
        scores.insert("T1".to_string(), score(times[kept[0]]));
        scores.insert("T6-Random".to_string(), score(kept.iter().map(|&k| times[k]).sum::<f64>() / kept.len() as f64));
        scores.insert("T6-Search".to_string(), score(kept.iter().map(|&k| times[k]).fold(f64::INFINITY, f64::min)));
        if let Some(k) = cands.iter().position(|r| r.tile.split('x').all(|t| t == "32")) {
            scores.insert("tile 32".to_string(), score(times[k]));
        }
        scores.insert("best".to_string(), score(best));
        out.push(InstanceEval {
            kernel,
            sizes,
            best,
            baseline,
            scores,
            candidates: cands.iter().zip(&times).zip(&pred).map(|((r, &t), &p)| (r.tile.clone(), t, p)).collect(),
            t1_tile: cands[kept[0]].tile.clone(),
        });
    }
    out
}

/// Means per method over `evals` (PI against "tile 32").
pub fn summarize(evals: &[&InstanceEval]) -> BTreeMap<String, Summary> {
    let mut out = BTreeMap::new();
    for m in METHODS {
        let scores: Vec<&Score> = evals.iter().filter_map(|e| e.scores.get(m)).collect();
        if scores.is_empty() {
            continue;
        }
        let n = scores.len() as f64;
        // Over the instances where the metric is defined (MAP needs T_B > T_O).
        let mean = |v: Vec<f64>| (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64);
        out.insert(
            m.to_string(),
            Summary {
                instances: scores.len(),
                tn: scores.iter().map(|s| s.tn).sum::<f64>() / n,
                speedup: mean(scores.iter().filter_map(|s| s.speedup).collect()),
                map: mean(scores.iter().filter_map(|s| s.map).collect()),
                map_instances: scores.iter().filter(|s| s.map.is_some()).count(),
                pi: None,
            },
        );
    }
    if let Some(base) = out.get("tile 32").and_then(|s| s.speedup) {
        for s in out.values_mut() {
            s.pi = s.speedup.map(|sp| 100.0 * (sp - base) / base);
        }
    }
    out
}

/// Markdown table: one row per kernel and method, then the means.
pub fn markdown(evals: &[InstanceEval]) -> String {
    let mut kernels: Vec<&str> = evals.iter().map(|e| e.kernel.as_str()).collect();
    kernels.sort();
    kernels.dedup();
    let mut s = String::from(
        "| kernel | method | instances | TN | speedup | MAP % (instances) | PI % vs tile 32 |\n|---|---|---|---|---|---|---|\n",
    );
    let f = |v: Option<f64>, d: usize| v.map_or("-".to_string(), |x| format!("{x:.d$}"));
    let mut rows = |label: &str, sel: Vec<&InstanceEval>| {
        for (m, sum) in summarize(&sel) {
            if m == "best" && label != "**mean**" {
                continue;
            }
            let map = if sum.map_instances == sum.instances {
                f(sum.map, 1)
            } else {
                format!("{} ({})", f(sum.map, 1), sum.map_instances)
            };
            s.push_str(&format!(
                "| {label} | {m} | {} | {:.3} | {} | {map} | {} |\n",
                sum.instances,
                sum.tn,
                f(sum.speedup, 2),
                f(sum.pi, 1)
            ));
        }
    };
    for k in &kernels {
        rows(k, evals.iter().filter(|e| e.kernel == *k).collect());
    }
    rows("**mean**", evals.iter().collect());
    s
}
