//! The paper's regressor: an MLP that predicts a candidate tile's execution
//! time from its features, in Burn.
//!
//! - [`net`]: the network (29 -> 32 -> 32 -> 1, tanh, dropout before the
//!   output) as a Burn `Module`, generic over the backend;
//! - [`train`]: the training loop (Huber loss, RMSProp, min-max
//!   normalisation, split by instance, early stopping on how well the
//!   network ranks validation tiles), for each member of an optional
//!   ensemble of differently seeded networks;
//! - [`saved`]: a trained model on disk (Burn record + JSON metadata) and
//!   batch prediction with it;
//! - [`correct`]: a linear per-machine correction of a frozen model's
//!   output, fitted in closed form by `tss adapt`.
//!
//! Configuration, module and training stay apart as in Burn's examples: a
//! [`TrainConfig`] fully describes a run and is saved with its model.

/// Which model directory under `trained/` is built into the binary for each mode.
pub mod built_in;
pub mod correct;
pub mod linear;
pub mod net;
pub mod ranker;
pub mod saved;
pub mod source;
pub mod train;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The CPU backend, in one place so another backend is a one-line change.
pub type Backend = burn_ndarray::NdArray<f32>;
/// [`Backend`] with automatic differentiation, for training.
pub type TrainBackend = burn::backend::Autodiff<Backend>;

/// What the network regresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Target {
    /// Seconds, as in the paper: large instances dominate the loss.
    Time,
    /// Natural log of seconds: every instance weighs the same and the error
    /// is relative, which is what choosing a tile needs.
    #[default]
    LogTime,
    /// Natural log of seconds over the fastest timed config of the same
    /// instance: what ranking within an instance needs and nothing else. The
    /// network no longer spends capacity on how long an instance runs
    /// (1e-3 to 1 s across the corpus), only on which config is faster.
    /// Predictions are then ratios to the instance's best, not seconds.
    Relative,
}

impl Target {
    /// The regressed value of a row timed at `seconds` in an instance whose
    /// fastest timed config took `instance_best` seconds.
    pub fn encode(self, seconds: f64, instance_best: f64) -> f32 {
        match self {
            Target::Time => seconds as f32,
            Target::LogTime => seconds.max(1e-9).ln() as f32,
            Target::Relative => (seconds.max(1e-9) / instance_best.max(1e-9)).ln() as f32,
        }
    }
    /// Seconds (a ratio to the instance's best for [`Target::Relative`]).
    pub fn decode(self, y: f32) -> f64 {
        match self {
            Target::Time => f64::from(y),
            Target::LogTime | Target::Relative => f64::from(y).exp(),
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Target::Time => "time",
            Target::LogTime => "log-time",
            Target::Relative => "relative",
        })
    }
}

impl FromStr for Target {
    type Err = String;
    fn from_str(s: &str) -> Result<Target, String> {
        match s {
            "time" => Ok(Target::Time),
            "log-time" => Ok(Target::LogTime),
            "relative" => Ok(Target::Relative),
            _ => Err(format!("unknown target '{s}' (time, log-time or relative)")),
        }
    }
}

/// What early stopping watches on the validation instances.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum StopOn {
    /// The Huber loss (as the paper trains). Models saved before `stop_on`
    /// existed stopped on it.
    #[default]
    Loss,
    /// How well the network ranks each instance's tiles: the mean normalised
    /// time of its predicted best 10 % (T6-Random's TN). The loss keeps
    /// falling long after the ranking stops improving, because it is
    /// dominated by differences *between* instances, which tiles do not
    /// change.
    Ranking,
}

impl fmt::Display for StopOn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StopOn::Loss => "loss",
            StopOn::Ranking => "ranking",
        })
    }
}

impl FromStr for StopOn {
    type Err = String;
    fn from_str(s: &str) -> Result<StopOn, String> {
        match s {
            "loss" => Ok(StopOn::Loss),
            "ranking" => Ok(StopOn::Ranking),
            _ => Err(format!("unknown early-stopping criterion '{s}' (loss or ranking)")),
        }
    }
}

/// What the validation split keeps together: the instances held out to
/// choose the epoch are whole instances, or every instance of whole kernels.
/// Held-out kernels make early stopping (and hyperparameters chosen on the
/// validation score) favour what carries over to kernels the network never
/// saw, which is what users' kernels are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum ValBy {
    /// Models saved before `val_by` existed split by instance.
    #[default]
    Instance,
    Kernel,
}

impl ValBy {
    /// The part of a sample's `kernel|sizes|platform` group that the split
    /// keeps whole: `kernel|sizes` (the same sizes timed on two platforms go
    /// to the same side), or `kernel`.
    pub fn key(self, group: &str) -> &str {
        let fields = match self {
            ValBy::Instance => 2,
            ValBy::Kernel => 1,
        };
        group.match_indices('|').nth(fields - 1).map_or(group, |(at, _)| &group[..at])
    }
}

impl fmt::Display for ValBy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ValBy::Instance => "instance",
            ValBy::Kernel => "kernel",
        })
    }
}

impl FromStr for ValBy {
    type Err = String;
    fn from_str(s: &str) -> Result<ValBy, String> {
        match s {
            "instance" => Ok(ValBy::Instance),
            "kernel" => Ok(ValBy::Kernel),
            _ => Err(format!("unknown validation split '{s}' (instance or kernel)")),
        }
    }
}

/// What training minimises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Loss {
    /// Huber loss on the target of every row (the paper's regression).
    #[default]
    Huber,
    /// Pairwise logistic loss within an instance (RankNet): for two configs
    /// of the same instance whose targets differ, `softplus(s_fast - s_slow)`
    /// weighted by how much they differ. Only the order of configs within
    /// an instance is learnt, which is all that choosing one needs; the
    /// outputs are scores, lower is faster, on no particular scale. Needs a
    /// log target (`log-time` or `relative`, for which the difference of two
    /// targets is the log of their time ratio).
    Pairwise,
}

impl fmt::Display for Loss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Loss::Huber => "huber",
            Loss::Pairwise => "pairwise",
        })
    }
}

impl FromStr for Loss {
    type Err = String;
    fn from_str(s: &str) -> Result<Loss, String> {
        match s {
            "huber" => Ok(Loss::Huber),
            "pairwise" => Ok(Loss::Pairwise),
            _ => Err(format!("unknown loss '{s}' (huber or pairwise)")),
        }
    }
}

/// Min-max scaling of every input column to [0, 1], fitted on training rows,
/// after a logarithm on the columns that span orders of magnitude.
///
/// Extents, tile sizes and working sets run from 1 to 10^4 and more.
/// Scaled linearly, tiles of 8, 16 and 64 all land within 0.005 of each
/// other, and the network cannot tell apart the configs whose times differ
/// most; on a log scale every doubling moves the input by the same step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Normalizer {
    /// Of each column after its logarithm, if it takes one.
    pub min: Vec<f64>,
    pub max: Vec<f64>,
    /// Per column, `Some(floor)`: the column is scaled as `ln(max(x, floor))`,
    /// `floor` its smallest positive training value. Models saved before
    /// this existed scale every column linearly (an empty list).
    #[serde(default)]
    pub log_floor: Vec<Option<f64>>,
}

/// A column goes on a log scale when it is never negative, reaches this
/// much, and its largest value is [`LOG_RATIO`] times its smallest positive
/// one (fractions in [0, 1], flags and small counts stay linear).
const LOG_MIN_MAX: f64 = 16.0;
const LOG_RATIO: f64 = 64.0;

impl Normalizer {
    /// Fits the scaling to `rows`; `log` lets wide columns take a logarithm
    /// (else every column is linear, as models before it were).
    pub fn fit(rows: &[Vec<f64>], log: bool) -> Normalizer {
        let d = rows.first().map_or(0, |r| r.len());
        let column = |k: usize| rows.iter().map(move |r| r[k]);
        let log_floor: Vec<Option<f64>> = (0..d)
            .map(|k| {
                let (lo, hi) = column(k).fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
                let floor = column(k).filter(|&v| v > 0.0).fold(f64::INFINITY, f64::min);
                (log && lo >= 0.0 && hi >= LOG_MIN_MAX && hi >= LOG_RATIO * floor).then_some(floor)
            })
            .collect();
        let mut n = Normalizer { min: vec![f64::INFINITY; d], max: vec![f64::NEG_INFINITY; d], log_floor };
        for r in rows {
            for (k, &x) in r.iter().enumerate() {
                let v = n.scaled(k, x);
                n.min[k] = n.min[k].min(v);
                n.max[k] = n.max[k].max(v);
            }
        }
        n
    }

    /// Column `k`'s value before the min-max step.
    fn scaled(&self, k: usize, v: f64) -> f64 {
        match self.log_floor.get(k).copied().flatten() {
            Some(floor) => v.max(floor).ln(),
            None => v,
        }
    }

    /// Scaled value; a constant column maps to 0.
    pub fn apply(&self, row: &[f64]) -> Vec<f32> {
        row.iter()
            .enumerate()
            .map(|(k, &v)| {
                let span = self.max[k] - self.min[k];
                if span > 0.0 { ((self.scaled(k, v) - self.min[k]) / span) as f32 } else { 0.0 }
            })
            .collect()
    }

    /// Columns of `row` outside the fitted range by more than `slack` of
    /// their span (the model extrapolates there). Not a column that was
    /// constant in training: [`Normalizer::apply`] feeds it as 0 whatever
    /// its value, so the network does not extrapolate in it; it only cannot
    /// see it (held out by family, the stencils fold had never seen a
    /// skewed band, and `SKEWED` alone made `tss predict` drop a ranking
    /// whose untiled gate was right: README, "Live searches").
    pub fn outside(&self, row: &[f64], slack: f64) -> Vec<usize> {
        (0..row.len())
            .filter(|&k| {
                let span = self.max[k] - self.min[k];
                let v = self.scaled(k, row[k]);
                span > 0.0 && (v < self.min[k] - slack * span || v > self.max[k] + slack * span)
            })
            .collect()
    }
}

/// Everything that defines a training run (saved with the model).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainConfig {
    pub feature_set: crate::features::FeatureSet,
    pub target: Target,
    pub hidden: usize,
    /// Drop probability before the output (the paper's keep probability 0.8).
    pub dropout: f64,
    pub learning_rate: f64,
    pub batch_size: usize,
    pub huber_delta: f32,
    pub max_epochs: usize,
    /// Stop after this many epochs without a better validation score.
    pub patience: usize,
    /// Fraction of instances (or of kernels, see `val_by`) held out for
    /// validation (the paper's 9 : 1).
    pub validation: f64,
    #[serde(default)]
    pub val_by: ValBy,
    /// L2 penalty on the weights (0: none, as in the paper). Models saved
    /// before it existed had none.
    #[serde(default)]
    pub weight_decay: f64,
    /// Whether wide input columns take a logarithm before scaling (see
    /// [`Normalizer`]). Models saved before it existed were linear.
    #[serde(default)]
    pub log_inputs: bool,
    pub seed: u64,
    /// Networks trained from seeds `seed`, `seed + 1`, ... on the same split;
    /// a prediction averages their outputs (for log-time, a geometric mean of
    /// times). One network's ranking of tiles moves with its initialisation;
    /// the mean of a few moves less. Models saved before ensembles have one.
    #[serde(default = "one")]
    pub ensemble: usize,
    /// Early stopping criterion.
    #[serde(default)]
    pub stop_on: StopOn,
    /// Models saved before `loss` existed used Huber.
    #[serde(default)]
    pub loss: Loss,
    /// Relative target only: ratios to the instance's best above this are
    /// trained as this ratio. Choosing needs the order of the fast configs;
    /// uncapped, the loss spends the network on how much slower a config
    /// 5x or 20x off the best is. Models saved before it had none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cap: Option<f64>,
    /// Each epoch trains on the untiled original's rows this many times
    /// (1: once, like every row). An instance has one untiled row among
    /// dozens of tiles, yet whether tiling pays at all is the call held-out
    /// kernels get most wrong (README, "The untiled call"). Huber loss only.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub untiled_weight: usize,
}

fn is_one(n: &usize) -> bool {
    *n == 1
}

fn one() -> usize {
    1
}

impl TrainConfig {
    /// The regressed value of a row (see [`Target::encode`]), clipped at
    /// the log of [`TrainConfig::cap`].
    pub fn encode(&self, seconds: f64, instance_best: f64) -> f32 {
        let y = self.target.encode(seconds, instance_best);
        self.cap.map_or(y, |c| y.min(c.ln() as f32))
    }

    /// Why [`TrainConfig::cap`] cannot apply: it needs the relative
    /// target (a ratio) and a ratio above 1.
    pub fn check_cap(&self) -> Result<(), String> {
        match self.cap {
            Some(_) if self.target != Target::Relative => {
                Err(format!("--cap needs --target relative (a ratio to the instance's best), not {}", self.target))
            }
            Some(c) if c.is_nan() || c <= 1.0 => Err(format!("--cap {c}: must be a ratio above 1")),
            _ => Ok(()),
        }
    }

    /// What a prediction is, as reports print it after the number: ` s`
    /// (seconds), `x` (a ratio to the instance's fastest config, for the
    /// relative target), or nothing (a pairwise score: lower is faster).
    pub fn prediction_unit(&self) -> &'static str {
        match (self.loss, self.target) {
            (Loss::Pairwise, _) => "",
            (Loss::Huber, Target::Relative) => "x",
            (Loss::Huber, _) => " s",
        }
    }
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            feature_set: crate::features::FeatureSet::Extended,
            target: Target::LogTime,
            hidden: 32,
            dropout: 0.2,
            learning_rate: 5e-4,
            batch_size: 512,
            huber_delta: 2.0,
            max_epochs: 400,
            patience: 40,
            validation: 0.1,
            val_by: ValBy::Instance,
            weight_decay: 0.0,
            log_inputs: false,
            seed: 42,
            ensemble: 1,
            stop_on: StopOn::Ranking,
            loss: Loss::Huber,
            cap: None,
            untiled_weight: 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizer_scales_and_flags_outliers() {
        let n = Normalizer::fit(&[vec![0.0, 5.0], vec![10.0, 5.0]], true);
        assert_eq!(n.apply(&[5.0, 5.0]), vec![0.5, 0.0]);
        assert_eq!(n.outside(&[30.0, 5.0], 0.5), vec![0]);
        assert!(n.outside(&[12.0, 5.0], 0.5).is_empty());
        // The constant column is fed as 0 whatever it holds: not far out.
        assert!(n.outside(&[5.0, 1e9], 0.5).is_empty());
    }

    #[test]
    fn wide_columns_are_scaled_by_their_logarithm() {
        // Tile sizes 8..1024 go on a log scale (each doubling one step); a
        // fraction, a signed column and a narrow count stay linear.
        let rows: Vec<Vec<f64>> =
            (3..=10).map(|e| vec![f64::from(1 << e), f64::from(e) / 10.0, f64::from(e) - 5.0, f64::from(e)]).collect();
        let n = Normalizer::fit(&rows, true);
        assert_eq!(n.log_floor, vec![Some(8.0), None, None, None]);
        let x: Vec<f32> = rows.iter().map(|r| n.apply(r)[0]).collect();
        for w in x.windows(2) {
            assert!((w[1] - w[0] - 1.0 / 7.0).abs() < 1e-6, "{x:?}");
        }
        assert_eq!(n.apply(&[0.0, 0.3, 0.0, 3.0])[0], 0.0, "below the floor: the floor");
        assert_eq!(n.outside(&[1e6, 0.5, 0.0, 5.0], 0.5), vec![0]);
        // Linear when asked, and for models saved before the floors existed.
        let linear = Normalizer::fit(&rows, false);
        assert!(linear.log_floor.iter().all(Option::is_none));
        assert!(linear.apply(&rows[1])[0] < 0.01);
        let mut v = serde_json::to_value(&linear).unwrap();
        v.as_object_mut().unwrap().remove("log_floor");
        assert_eq!(serde_json::from_value::<Normalizer>(v).unwrap().apply(&rows[1]), linear.apply(&rows[1]));
    }

    #[test]
    fn targets_round_trip() {
        for t in [Target::Time, Target::LogTime, Target::Relative] {
            let best = if t == Target::Relative { 1.0 } else { 0.5 };
            assert!((t.decode(t.encode(0.25, best)) - 0.25).abs() < 1e-6);
            assert_eq!(t.to_string().parse::<Target>().unwrap(), t);
        }
        assert!((Target::Relative.decode(Target::Relative.encode(0.3, 0.1)) - 3.0).abs() < 1e-5, "a ratio");
    }

    #[test]
    fn a_cap_clips_only_the_slow_rows() {
        let cfg = TrainConfig { target: Target::Relative, cap: Some(2.0), ..TrainConfig::default() };
        assert!((cfg.encode(0.15, 0.1) - 1.5f32.ln()).abs() < 1e-6, "below the cap: the ratio");
        assert!((cfg.encode(0.9, 0.1) - 2f32.ln()).abs() < 1e-6, "9x is trained as 2x");
        let uncapped = TrainConfig { cap: None, ..cfg.clone() };
        assert!((uncapped.encode(0.9, 0.1) - 9f32.ln()).abs() < 1e-5);
        // A model.json without the field loads uncapped, and none is written.
        let v = serde_json::to_value(&uncapped).unwrap();
        assert!(v.get("cap").is_none());
        assert_eq!(serde_json::from_value::<TrainConfig>(v).unwrap().cap, None);
    }
}

/// What [`fit`] reports besides the model.
#[derive(Clone, Debug)]
pub struct FitReport {
    pub rows: usize,
    /// Per ensemble member.
    pub best_epochs: Vec<usize>,
    pub train_loss: f64,
    pub val_loss: f64,
    pub train_instances: usize,
    pub val_instances: usize,
    /// Tile-selection scores on the validation instances.
    pub validation: std::collections::BTreeMap<String, crate::eval::Summary>,
}

/// Trains on `records`, the rows of the datasets `data` (one mode, loaded
/// for the set with [`crate::dataset::load_for`]), and returns the model to
/// save in `out` with its provenance, plus the training report.
pub fn fit(
    data: &[std::path::PathBuf],
    records: &[crate::dataset::Record],
    out: &std::path::Path,
    cfg: TrainConfig,
    pool: bool,
    progress: train::Progress,
) -> Result<(saved::SavedModel, FitReport), String> {
    use std::collections::BTreeSet;
    let list = data.iter().map(|p| p.display().to_string()).collect::<Vec<_>>();
    let modes: BTreeSet<&str> = records.iter().map(|r| r.mode.as_str()).collect();
    // Only sets from `parallel` on tell the modes apart (LOG_THREADS): the
    // narrower ones would see one config with two unrelated times.
    if modes.len() > 1 && cfg.feature_set < crate::features::FeatureSet::Parallel {
        return Err(format!(
            "{} mixes serial and parallel rows; train one mode at a time, or both with --set parallel or wider",
            list.join(", ")
        ));
    }
    // Before training: a refusal must not cost the training time.
    let machine = crate::dataset::one_machine(data, records, pool)?;
    let samples = train::samples(records, cfg.feature_set);
    let (_, val_idx) = train::split(&samples, &cfg);
    let val_groups: BTreeSet<&str> = val_idx.iter().map(|&i| samples[i].group.as_str()).collect();
    let trained = train::train(&samples, &cfg, progress)?;
    let mut first = records.first().map(|r| r.meta.clone()).unwrap_or_default();
    if pool {
        // Name every platform pooled: provenance must not claim one.
        let all = |f: fn(&crate::dataset::Meta) -> &String| {
            records
                .iter()
                .map(|r| f(&r.meta).as_str())
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect::<Vec<_>>()
                .join(" + ")
        };
        (first.cpu, first.cc, first.cflags) = (all(|m| &m.cpu), all(|m| &m.cc), all(|m| &m.cflags));
    }
    let machines = if pool { crate::dataset::machines_of(data)? } else { Vec::new() };
    let machine_kernels = machines.iter().map(|m| crate::dataset::kernels_on(records, m)).collect();
    let data_info = saved::Provenance {
        files: list,
        mode: if modes.is_empty() { "serial".to_string() } else { modes.iter().copied().collect::<Vec<_>>().join("+") },
        rows: samples.len(),
        instances: trained.train_instances + trained.val_instances,
        kernels: records.iter().map(|r| r.kernel.clone()).collect::<BTreeSet<_>>().into_iter().collect(),
        cpu: first.cpu,
        l1d: first.l1d,
        l2: first.l2,
        line: first.line,
        cc: first.cc,
        cflags: first.cflags,
        machine,
        machines,
        machine_kernels,
    };
    let meta = saved::ModelMeta {
        format: saved::FORMAT,
        tss_version: env!("CARGO_PKG_VERSION").into(),
        trained: saved::today(),
        feature_names: cfg.feature_set.names().iter().map(|s| s.to_string()).collect(),
        config: cfg,
        normalizer: trained.normalizer.clone(),
        data: data_info,
        best_epoch: trained.best_epochs.iter().sum::<usize>() / trained.best_epochs.len().max(1),
        member_epochs: trained.best_epochs.clone(),
        train_loss: trained.train_loss,
        val_loss: trained.val_loss,
        scores: serde_json::Value::Null,
        correction: None,
        gate: None,
        ranker: None,
    };
    let mut model = saved::SavedModel::new(out, meta, trained.nets);
    let (val_records, train_records): (Vec<crate::dataset::Record>, Vec<_>) =
        records.iter().cloned().partition(|r| val_groups.contains(r.instance_key().as_str()));
    let constants = crate::eval::best_constant(&train_records, model.feature_set());
    let evals = crate::eval::evaluate(&model, &val_records, &constants, &Default::default());
    let validation = crate::eval::summarize(&evals.iter().collect::<Vec<_>>());
    model.meta.scores = serde_json::json!({ "validation": validation });
    let report = FitReport {
        rows: samples.len(),
        best_epochs: trained.best_epochs,
        train_loss: trained.train_loss,
        val_loss: trained.val_loss,
        train_instances: trained.train_instances,
        val_instances: trained.val_instances,
        validation,
    };
    Ok((model, report))
}
