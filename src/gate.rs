//! The untiled gate: whether to keep a loop nest as written, decided beside
//! the network.
//!
//! At `-O3 -march=native` some nests run fastest untiled: each statement
//! instance touches fresh data (little reuse for a tile to keep), and the
//! loop the original runs innermost walks every reference at stride 1, so
//! it vectorises. Held out, the network almost never ranks the untiled
//! original first on such nests, although it is the fastest candidate of
//! about one training instance in eight (README, "The untiled gate"). Its
//! inputs describe tiles well and the untiled code poorly, and one output
//! among hundreds of tiles is easy to lose.
//!
//! The gate is up to [`MAX_RULES`] rules, each four thresholds on what the
//! untiled code runs ([`UntiledTraits`]: data per instance, and stride-1,
//! strided and reduction references along the innermost source loops),
//! fitted on one machine's training rows by the gain they would have had
//! there ([`UntiledGate::fit`]). Or it is a [`Linear`] estimate of the
//! untiled code's time over the fastest tile's from every stored column of
//! the untiled candidate ([`UntiledGate::fit_linear`]), which fires where it
//! estimates the original faster. Where the gate fires, T1 takes the untiled
//! original and the searches time it first; `tss predict` applies the gate
//! only on the machine it was fitted on. An original that walks memory at a
//! stride along its innermost loop is never put first, by the gate or the
//! network ([`strided_original`]).

use std::collections::HashMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

pub use crate::model::linear::Linear;

use crate::Error;
use crate::dataset::{Record, STORED, candidates_by_instance};
use crate::features::FeatureSet;
use crate::harness::UNTILED;
use crate::machine::{Caches, Descriptor};
use crate::refeature::Sources;

/// What the gate knows of an instance's untiled original.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct UntiledTraits {
    /// `LOG_DATA`: log of the bytes the nest touches per statement instance
    /// (high: little reuse for a tile to keep).
    pub log_data: f64,
    /// References that move at stride 1 along the innermost source loop.
    pub unit: u32,
    /// References that move by any other stride along it.
    pub other: u32,
    /// Writes that stay put along it: a reduction the innermost loop carries,
    /// which gcc does not vectorise without reassociating.
    pub reductions: u32,
    /// Reads of a value an earlier iteration of the innermost loop wrote: a
    /// recurrence, which no compiler vectorises as written
    /// ([`crate::poly::deps::inner_recurrences`]).
    #[serde(default)]
    pub recurrences: u32,
    /// Whether the original runs its outermost loop on several threads
    /// (`--parallel`, that loop free of dependences and longer than one
    /// iteration): the threads then give it the speed its recurrence takes.
    #[serde(default)]
    pub threaded: bool,
}

impl UntiledTraits {
    /// Whether the loops as written walk some reference at a stride other
    /// than 1 along their innermost loop. Tiling reorders such a walk, and
    /// the original is then never the first pick, whatever the network or
    /// the gate says ([`strided_original`]).
    pub fn strided(&self) -> bool {
        self.other > 0
    }

    /// Whether the innermost loop as written reads what its previous
    /// iterations wrote (a recurrence, not a reduction): gcc does not
    /// vectorise it, while skewed or reordered tiles and register tiles
    /// across independent rows can. Never the first pick either.
    pub fn recurrent(&self) -> bool {
        self.recurrences > 0
    }

    /// Why the loops as written are never the first pick, whatever the
    /// network or the gate says (`None`: they may be). The searches still
    /// time them second. A recurrent original that runs on several threads
    /// may be: on the Zen 4's parallel rows of `corpus/recur` such originals
    /// were the fastest on 12 of 36 instances, the single-threaded ones on
    /// none (README, "Recurrences").
    pub fn never_first(&self) -> Option<&'static str> {
        if self.strided() {
            Some("walks memory at a stride, where a tile nearly always wins (README, \"Strided originals\")")
        } else if self.recurrent() && !self.threaded {
            Some(
                "carries a recurrence, which gcc does not vectorise, where a tile nearly always wins (README, \"Recurrences\")",
            )
        } else {
            None
        }
    }
}

/// Whether an untiled row's stored features ([`STORED`]) say that its loops
/// walk some reference at a stride other than 1 along the innermost source
/// loop (`SRC_STRIDED` > 0); false for rows stored before that column.
///
/// Such an original is never T1's pick and never gated in; the searches
/// still time it second. The asymmetry is measured: over the corpus rows
/// of four CPUs, the original was the fastest candidate on 28 of 1742 such
/// instances, and there the best tile was at most 1.38x slower. Held out by
/// family, the network's untiled picks on such nests ran up to 17x slower
/// than the best tile (README, "Strided originals").
pub fn strided_original(stored: &[f64]) -> bool {
    let column = STORED.names().iter().position(|n| *n == "SRC_STRIDED");
    column.and_then(|k| stored.get(k)).is_some_and(|&v| v > 0.0)
}

/// One rule of a gate: untiled when `log_data > log_data`, `other <=
/// max_other`, `unit >= min_unit` and `reductions <= max_reductions`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rule {
    pub log_data: f64,
    pub max_other: u32,
    pub min_unit: u32,
    pub max_reductions: u32,
    /// Training instances it fired on when fitted (those no earlier rule
    /// took), and the untiled code's geometric-mean TN there.
    pub fires_on: usize,
    pub fired_tn: f64,
}

/// Which gate `tss gate` and `tss train --gate` fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GateKind {
    /// Up to [`MAX_RULES`] threshold rules on [`UntiledTraits`] (needs the
    /// kernels' sources).
    Rules,
    /// A [`Linear`] estimate from the untiled row's stored features.
    Linear,
    /// Both, firing where either does (needs the kernels' sources).
    Both,
}

impl std::str::FromStr for GateKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "rules" => Ok(GateKind::Rules),
            "linear" => Ok(GateKind::Linear),
            "both" => Ok(GateKind::Both),
            _ => Err(format!("unknown gate kind {s:?} (linear, rules, both)")),
        }
    }
}

/// The fitted gate: untiled when any of its rules fires, or where its
/// linear estimate puts the original ahead of every tile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UntiledGate {
    #[serde(default)]
    pub rules: Vec<Rule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linear: Option<Linear>,
    /// Training instances the linear estimate fired on, and the geometric
    /// mean there of the untiled time over the fastest tile's.
    #[serde(default)]
    pub fires_on: usize,
    #[serde(default)]
    pub fired_tn: f64,
    /// The TN a tiled choice was assumed to score where the rules replace it
    /// ([`UntiledGate::fit`]).
    pub assumed_tn: f64,
    /// Training instances it was fitted on.
    pub instances: usize,
    /// The machine whose rows it was fitted on (`None`: rows of several).
    /// Whether the original beats a tile is a property of the machine, so
    /// `tss predict` applies the gate only there (README, "The untiled gate").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<Descriptor>,
}

/// The TN assumed for the network's tiled choice when fitting: about what
/// held-out T1 scores on instances where tiling pays (README, "The untiled
/// gate").
pub const ASSUMED_TN: f64 = 1.3;

/// Most rules in a gate: kernels that run fastest untiled come in a few
/// kinds (stencils, matrix-vector products, ...), each a rule of its own;
/// more rules would fit single kernels.
pub const MAX_RULES: usize = 3;

impl Rule {
    pub fn fires(&self, t: &UntiledTraits) -> bool {
        t.log_data > self.log_data
            && t.other <= self.max_other
            && t.unit >= self.min_unit
            && t.reductions <= self.max_reductions
    }

    /// The rule of most total gain over `samples` (traits and the untiled
    /// code's TN per training instance), where firing on an instance gains
    /// `ln(assumed_tn / tn)`: it trades a tiled choice assumed at
    /// `assumed_tn` for the untiled code. `None` when no rule gains.
    fn fit(samples: &[(UntiledTraits, f64)], assumed_tn: f64) -> Option<Rule> {
        let gain: Vec<f64> = samples.iter().map(|(_, tn)| (assumed_tn / tn).ln()).collect();
        let top = |f: fn(&UntiledTraits) -> u32| samples.iter().map(|(t, _)| f(t)).max();
        let (max_other, max_unit, max_reductions) = (top(|t| t.other)?, top(|t| t.unit)?, top(|t| t.reductions)?);
        let cuts = data_cuts(samples);
        let mut best: Option<(f64, Rule)> = None;
        for o in 0..=max_other {
            for u in 0..=max_unit {
                for r in 0..=max_reductions {
                    let admitted: Vec<(f64, f64)> = samples
                        .iter()
                        .zip(&gain)
                        .filter(|((t, _), _)| t.other <= o && t.unit >= u && t.reductions <= r)
                        .map(|((t, _), &g)| (t.log_data, g))
                        .collect();
                    let Some((g, cut)) = best_cut(admitted, &cuts) else { continue };
                    if g > best.as_ref().map_or(1e-9, |b| b.0) {
                        let rule = Rule {
                            log_data: cut,
                            max_other: o,
                            min_unit: u,
                            max_reductions: r,
                            fires_on: 0,
                            fired_tn: 1.0,
                        };
                        best = Some((g, rule));
                    }
                }
            }
        }
        let (_, mut rule) = best?;
        let fired: Vec<f64> = samples.iter().filter(|(t, _)| rule.fires(t)).map(|(_, tn)| *tn).collect();
        rule.fires_on = fired.len();
        rule.fired_tn = crate::stats::geo_mean(fired);
        Some(rule)
    }
}

impl UntiledGate {
    /// Whether the gate keeps the original, from what is known of it: the
    /// traits (for rules) and the untiled row's features in the linear
    /// estimate's set. An input that is missing fires nothing.
    pub fn fires(&self, traits: Option<&UntiledTraits>, features: Option<&[f64]>) -> bool {
        self.why(traits, features).is_some()
    }

    /// [`Self::fires`], saying why for `tss predict`'s warning.
    pub fn why(&self, traits: Option<&UntiledTraits>, features: Option<&[f64]>) -> Option<String> {
        if let Some(t) = traits.filter(|t| self.rules.iter().any(|r| r.fires(t))) {
            return Some(format!(
                "LOG_DATA {:.2}; {} stride-1, {} strided references and {} reductions along the innermost source loops",
                t.log_data, t.unit, t.other, t.reductions
            ));
        }
        let (l, x) = self.linear.as_ref().zip(features.filter(|x| Some(x.len()) == self.linear_len()))?;
        let e = l.estimate(x);
        (e < 0.0).then(|| format!("estimated untiled time {:.2}x the fastest tile's", e.exp()))
    }

    /// The feature vector length the linear estimate reads.
    fn linear_len(&self) -> Option<usize> {
        self.linear.as_ref().map(|l| l.mean.len())
    }

    /// Whether applying the gate needs the kernels' sources (its rules do;
    /// without them only a linear estimate applies).
    pub fn needs_traits(&self) -> bool {
        !self.rules.is_empty()
    }

    /// The linear gate of `samples` (the untiled row's features and
    /// `ln(untiled / fastest tile)` per training instance, see
    /// [`linear_samples`]); `None` without two samples.
    pub fn fit_linear(samples: &[(Vec<f64>, f64)]) -> Option<UntiledGate> {
        let (x, y): (Vec<Vec<f64>>, Vec<f64>) = samples.iter().cloned().unzip();
        let linear = Linear::fit(STORED, &x, &y, crate::model::linear::LAMBDA, false)?;
        let fired: Vec<f64> = samples.iter().filter(|(x, _)| linear.estimate(x) < 0.0).map(|(_, y)| y.exp()).collect();
        Some(UntiledGate {
            rules: Vec::new(),
            fires_on: fired.len(),
            fired_tn: crate::stats::geo_mean(fired),
            linear: Some(linear),
            assumed_tn: 0.0,
            instances: samples.len(),
            machine: None,
        })
    }

    /// Up to [`MAX_RULES`] rules by sequential covering: the rule of most
    /// gain ([`Rule::fit`]), then the same on the instances it leaves, until
    /// none gains. `None` when not even the first gains.
    pub fn fit(samples: &[(UntiledTraits, f64)], assumed_tn: f64) -> Option<UntiledGate> {
        let mut left = samples.to_vec();
        let mut rules = Vec::new();
        while rules.len() < MAX_RULES
            && let Some(rule) = Rule::fit(&left, assumed_tn)
        {
            left.retain(|(t, _)| !rule.fires(t));
            rules.push(rule);
        }
        (!rules.is_empty()).then_some(UntiledGate {
            rules,
            linear: None,
            fires_on: 0,
            fired_tn: 1.0,
            assumed_tn,
            instances: samples.len(),
            machine: None,
        })
    }

    /// One line for reports.
    pub fn describe(&self) -> String {
        if let Some(l) = &self.linear {
            let top: Vec<String> = l.strongest(4).iter().map(|(n, w)| format!("{n} {w:+.2}")).collect();
            let rules = if self.rules.is_empty() {
                String::new()
            } else {
                let only = UntiledGate { linear: None, ..self.clone() };
                format!("; and {}", only.describe())
            };
            return format!(
                "untiled where a linear estimate of ln(untiled / fastest tile) from the untiled row's {} features \
                 is below 0 (fires on {} of {} training instances, where the original ran {:.3}x the fastest \
                 tile's time; strongest columns {}){rules}",
                l.mean.len(),
                self.fires_on,
                self.instances,
                self.fired_tn,
                top.join(", ")
            );
        }
        let rules: Vec<String> = self
            .rules
            .iter()
            .map(|r| {
                format!(
                    "LOG_DATA > {:.3}, at most {} strided, at least {} stride-1 references and at most {} reductions \
                     (fires on {}, untiled TN {:.3})",
                    r.log_data, r.max_other, r.min_unit, r.max_reductions, r.fires_on, r.fired_tn
                )
            })
            .collect();
        format!(
            "untiled when, along the innermost source loops, {} (fitted on {} instances assuming tiled TN {})",
            rules.join("; or "),
            self.instances,
            self.assumed_tn
        )
    }
}

/// The data-size thresholds worth trying: below every sample, and midway
/// between consecutive distinct values.
fn data_cuts(samples: &[(UntiledTraits, f64)]) -> Vec<f64> {
    let mut levels: Vec<f64> = samples.iter().map(|(t, _)| t.log_data).collect();
    levels.sort_by(f64::total_cmp);
    levels.dedup();
    let below = levels.first().map(|l| l - 1.0);
    below.into_iter().chain(levels.windows(2).map(|w| (w[0] + w[1]) / 2.0)).collect()
}

/// The cut of most total gain over `admitted` (log data, gain), firing on
/// everything above it: one sweep from the top. `None` when none gains.
fn best_cut(mut admitted: Vec<(f64, f64)>, cuts: &[f64]) -> Option<(f64, f64)> {
    admitted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (mut above, mut k) = (0.0, admitted.len());
    let mut best: Option<(f64, f64)> = None;
    for &cut in cuts.iter().rev() {
        while k > 0 && admitted[k - 1].0 > cut {
            k -= 1;
            above += admitted[k].1;
        }
        if above > best.map_or(0.0, |b| b.0) {
            best = Some((above, cut));
        }
    }
    best
}

/// Instance key of the gate's tables: kernel, mode and sizes.
pub type InstanceKey = (String, String, String);

/// The traits of every instance of `records`, from the kernels' sources
/// (`sources`). A row of a kernel not among them is an error where `every`
/// is set, and has no traits otherwise.
pub fn traits_of(
    records: &[Record],
    sources: &mut Sources,
    every: bool,
) -> Result<HashMap<InstanceKey, UntiledTraits>, Error> {
    let mut out = HashMap::new();
    for r in records {
        let key = (r.kernel.clone(), r.mode.clone(), r.sizes.clone());
        if out.contains_key(&key) {
            continue;
        }
        // The vector width enters no trait, nor the thread count beyond
        // whether there are several.
        let Some((a, shape)) = sources.shaped_for_rules(&r.kernel, &r.mode, &r.sizes)? else {
            if every {
                return Err(Error::Usage(Sources::unknown(&r.kernel)));
            }
            continue;
        };
        let caches = Caches { l1d: r.meta.l1d, l2: r.meta.l2, line: r.meta.line };
        out.insert(key, a.kernel.untiled_traits(shape, &caches));
    }
    Ok(out)
}

/// The gate of `kind` of the training rows `records` (see
/// [`UntiledGate::fit`] and [`UntiledGate::fit_linear`]), measured on
/// `machine`, for a model of `set`; `None` when no rule gains, too few rows
/// carry the stored features, or `set` does not rank the untiled code.
pub fn fit_on(
    records: &[Record],
    machine: Option<Descriptor>,
    kernels: &[PathBuf],
    set: FeatureSet,
    kind: GateKind,
    assumed_tn: f64,
) -> Result<Option<UntiledGate>, Error> {
    if !set.describes_untiled() {
        return Ok(None);
    }
    let rules = || -> Result<_, Error> {
        Ok(UntiledGate::fit(&samples(records, &traits_of(records, &mut Sources::new(kernels), true)?, set), assumed_tn))
    };
    let linear = || UntiledGate::fit_linear(&linear_samples(records, set));
    let gate = match kind {
        GateKind::Rules => rules()?,
        GateKind::Linear => linear(),
        GateKind::Both => match (rules()?, linear()) {
            (Some(r), Some(l)) => Some(UntiledGate { rules: r.rules, assumed_tn: r.assumed_tn, ..l }),
            (r, l) => r.or(l),
        },
    };
    Ok(gate.map(|g| UntiledGate { machine, ..g }))
}

/// Per training instance with a correct untiled row carrying every stored
/// column and at least one tile: the untiled row's features and
/// `ln(untiled time / fastest tiled time)` among the candidates a model of
/// `set` ranks. The fastest tile, not the fastest candidate: the estimate
/// must say by how much the original wins, not only that it does.
pub fn linear_samples(records: &[Record], set: FeatureSet) -> Vec<(Vec<f64>, f64)> {
    candidates_by_instance(records, set)
        .values()
        .filter_map(|rows| {
            let tiled = rows.iter().filter(|r| r.tile != UNTILED).filter_map(|r| r.time_median);
            let best = tiled.fold(f64::INFINITY, f64::min);
            let untiled = rows.iter().find(|r| r.tile == UNTILED && r.features.len() >= STORED.len())?;
            let ratio = untiled.time_median? / best;
            (ratio.is_finite() && ratio > 0.0).then(|| (untiled.features_of(STORED).to_vec(), ratio.ln()))
        })
        .collect()
}

/// Per training instance with a correct untiled row: its traits and the
/// untiled code's TN among the candidates a model of `set` ranks.
pub fn samples(
    records: &[Record],
    traits: &HashMap<InstanceKey, UntiledTraits>,
    set: FeatureSet,
) -> Vec<(UntiledTraits, f64)> {
    labelled_samples(records, traits, set).into_iter().map(|(_, t, tn)| (t, tn)).collect()
}

/// [`samples`] with each instance's key (`kernel|sizes|platform|mode`),
/// for `tss gate --samples`.
pub fn labelled_samples(
    records: &[Record],
    traits: &HashMap<InstanceKey, UntiledTraits>,
    set: FeatureSet,
) -> Vec<(String, UntiledTraits, f64)> {
    candidates_by_instance(records, set)
        .iter()
        .filter_map(|(key, rows)| {
            let best = rows.iter().filter_map(|r| r.time_median).fold(f64::INFINITY, f64::min);
            let untiled = rows.iter().find(|r| r.tile == UNTILED)?;
            let t = traits.get(&(untiled.kernel.clone(), untiled.mode.clone(), untiled.sizes.clone()))?;
            Some((key.clone(), *t, untiled.time_median? / best))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(log_data: f64, unit: u32, other: u32) -> UntiledTraits {
        UntiledTraits { log_data, unit, other, reductions: 0, recurrences: 0, threaded: false }
    }

    #[test]
    fn fits_the_rule_that_separates_untiled_wins() {
        // Untiled wins (TN 1.0) only with much data, no stride and stride-1 refs.
        let samples = vec![
            (t(3.0, 3, 0), 1.0),
            (t(2.5, 2, 0), 1.05),
            (t(3.2, 2, 1), 3.0), // strided innermost: tiling pays
            (t(0.5, 3, 0), 2.5), // much reuse: tiling pays
            (t(1.0, 1, 0), 2.0),
        ];
        let g = UntiledGate::fit(&samples, 1.3).expect("a rule gains");
        assert!(g.fires(Some(&t(3.0, 3, 0)), None) && g.fires(Some(&t(2.5, 2, 0)), None));
        assert!(
            !g.fires(Some(&t(3.2, 2, 1)), None)
                && !g.fires(Some(&t(0.5, 3, 0)), None)
                && !g.fires(Some(&t(1.0, 1, 0)), None)
        );
        assert_eq!(g.rules.len(), 1);
        assert_eq!(g.rules[0].fires_on, 2);
        assert!((g.rules[0].fired_tn - 1.05f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn a_second_rule_covers_a_second_kind() {
        // Stencil-like: many stride-1 references, any data size; matrix-vector
        // like: few references but much data. One conjunction would take in
        // the losers between them.
        let samples = vec![
            (t(-2.0, 8, 0), 1.0),
            (t(-1.5, 6, 0), 1.0),
            (t(2.0, 3, 0), 1.0),
            (t(2.1, 3, 0), 1.02),
            (t(-1.0, 3, 0), 3.0), // reuse, few references: tile
            (t(-0.5, 4, 0), 2.0),
        ];
        let g = UntiledGate::fit(&samples, 1.3).expect("rules gain");
        assert_eq!(g.rules.len(), 2, "{}", g.describe());
        let fired: Vec<bool> = samples.iter().map(|(x, _)| g.fires(Some(x), None)).collect();
        assert_eq!(fired, [true, true, true, true, false, false]);
    }

    #[test]
    fn a_strided_original_is_read_from_its_stored_column() {
        let names = STORED.names();
        let mut x = vec![0.0; names.len()];
        assert!(!strided_original(&x));
        x[names.iter().position(|n| *n == "SRC_STRIDED").unwrap()] = 2.0;
        assert!(strided_original(&x));
        assert!(!strided_original(&x[..names.len() - 4]), "a row stored before the column");
        assert!(t(1.0, 2, 1).strided() && !t(1.0, 2, 0).strided());
    }

    #[test]
    fn strided_or_recurrent_originals_are_never_first_and_say_why() {
        assert_eq!(t(1.0, 2, 0).never_first(), None);
        assert!(t(1.0, 2, 1).never_first().unwrap().contains("stride"));
        let recurrent = UntiledTraits { recurrences: 1, ..t(1.0, 2, 0) };
        assert!(recurrent.recurrent() && recurrent.never_first().unwrap().contains("recurrence"));
        let threaded = UntiledTraits { threaded: true, ..recurrent };
        assert_eq!(threaded.never_first(), None, "its threads may pay for the recurrence");
        assert!(UntiledTraits { threaded: true, ..t(1.0, 2, 1) }.never_first().is_some(), "strided either way");
    }

    #[test]
    fn no_gate_where_untiled_never_pays() {
        let samples = vec![(t(3.0, 3, 0), 1.4), (t(2.0, 1, 1), 2.0)];
        assert_eq!(UntiledGate::fit(&samples, 1.3), None);
        assert_eq!(UntiledGate::fit(&[], 1.3), None);
    }

    #[test]
    fn the_linear_gate_fires_where_it_estimates_the_original_faster() {
        // ln(untiled / fastest tile) falls with the first column: the
        // original wins where it is large.
        let sample = |v: f64| {
            let mut x = vec![0.0; STORED.len()];
            x[0] = v;
            (x, 0.55 - 0.1 * v)
        };
        let samples: Vec<(Vec<f64>, f64)> = (0..20).map(|i| sample(i as f64)).collect();
        let g = UntiledGate::fit_linear(&samples).expect("a fit");
        assert!(!g.needs_traits());
        assert_eq!(g.fires_on, 14, "{}", g.describe());
        assert!(g.fires(None, Some(&sample(9.0).0)));
        assert!(!g.fires(None, Some(&sample(2.0).0)));
        assert!(g.why(None, Some(&sample(9.0).0)).unwrap().contains("0.70x the fastest tile"));
        // A vector of another set's length, or none, fires nothing.
        assert!(!g.fires(None, Some(&[9.0])));
        assert!(!g.fires(Some(&t(3.0, 3, 0)), None));
        assert!(UntiledGate::fit_linear(&samples[..1]).is_none());
    }
}
