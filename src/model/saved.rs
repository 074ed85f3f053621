//! A trained model on disk: `DIR/model.json` (configuration, normalisation,
//! feature names, training data provenance, scores) and one Burn record per
//! ensemble member, full precision: `DIR/weights.bin`, then
//! `DIR/weights-1.bin`, `DIR/weights-2.bin`, ... (a single network is just
//! `weights.bin`, as before ensembles).

use std::path::{Path, PathBuf};

use burn::module::Module;
use burn::record::{BinBytesRecorder, BinFileRecorder, FullPrecisionSettings, Recorder};
use serde::{Deserialize, Serialize};

use super::correct::Correction;
use super::net::Mlp;
use super::ranker::describes_structure;
use super::train::forward_cautious;
use super::{Backend, Normalizer, TrainConfig};
use crate::features::FeatureSet;

/// Bumped when the files change incompatibly.
pub const FORMAT: u32 = 1;

/// Where the training data came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct Provenance {
    pub files: Vec<String>,
    pub mode: String,
    pub rows: usize,
    pub instances: usize,
    pub kernels: Vec<String>,
    pub cpu: String,
    pub l1d: u64,
    pub l2: u64,
    pub line: u64,
    pub cc: String,
    pub cflags: String,
    /// The data directory's `machine.json` (models trained before it existed
    /// have only the fields above).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<crate::machine::Descriptor>,
    /// Every platform of a model trained with `--pool-machines` (then
    /// `machine` is empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub machines: Vec<crate::machine::Descriptor>,
    /// How many of `kernels` have rows of each of `machines`, in order
    /// (empty in models trained before it was recorded: then every machine
    /// counts whole). A machine with rows of fewer than half of them, say a
    /// family of kernels timed on one more CPU, does not make the model one
    /// trained on that CPU ([`Provenance::differences_from`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub machine_kernels: Vec<usize>,
}

/// How [`Provenance::differences_from`] says that a pooled machine like
/// this one has rows of only a few of the model's kernels.
const ONLY: &str = "only ";

impl Provenance {
    /// How the recorded training platforms differ from `here`: empty when
    /// one of them is like it and has rows of at least half the model's
    /// kernels, else the differences of the closest (for a machine like
    /// `here` with fewer, how few: `only 6 of its 124 kernels`); `None` when
    /// the model recorded no descriptor.
    pub fn differences_from(&self, here: &crate::machine::Descriptor) -> Option<Vec<String>> {
        // Among as many differences, the vector ISA and the L2 weigh most.
        let weight =
            |d: &Vec<String>| (d.len(), d.iter().filter(|x| x.starts_with("isa ") || x.starts_with("L2 ")).count());
        let pooled = self.machines.iter().enumerate().map(|(k, m)| {
            let diffs = m.differences(here);
            match self.machine_kernels.get(k) {
                Some(&n) if diffs.is_empty() && 2 * n < self.kernels.len() => {
                    vec![format!("{ONLY}{n} of its {} kernels", self.kernels.len())]
                }
                _ => diffs,
            }
        });
        self.machine.iter().map(|m| m.differences(here)).chain(pooled).min_by_key(weight)
    }

    /// How a warning names the training machines: `another machine`, or
    /// `3 other machines (the closest differs in ...)` for a pooled model,
    /// or `4 machines, this kind for only 6 of its 124 kernels`.
    pub fn other_machines(&self, diffs: &[String]) -> String {
        match (self.machine.iter().chain(&self.machines).count(), diffs) {
            (n, [few]) if few.starts_with(ONLY) => format!("{n} machines, this kind for {few}"),
            (0 | 1, _) => format!("another machine ({})", diffs.join(", ")),
            (n, _) => format!("{n} other machines (the closest differs in {})", diffs.join(", ")),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelMeta {
    pub format: u32,
    pub tss_version: String,
    /// UTC date of training, `YYYY-MM-DD`.
    #[serde(default)]
    pub trained: String,
    pub config: TrainConfig,
    pub feature_names: Vec<String>,
    pub normalizer: Normalizer,
    pub data: Provenance,
    /// Mean over the ensemble members of [`ModelMeta::member_epochs`].
    pub best_epoch: usize,
    /// Each member's epoch of best validation score (see `TrainConfig::stop_on`).
    #[serde(default)]
    pub member_epochs: Vec<usize>,
    pub train_loss: f64,
    pub val_loss: f64,
    /// Free-form scores (e.g. validation tile-selection metrics).
    #[serde(default)]
    pub scores: serde_json::Value,
    /// A per-machine correction of the networks' output (`tss adapt`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub correction: Option<Correction>,
    /// The rule that keeps the loops as written where tiling does not pay
    /// ([`crate::gate`]); fitted by `tss train --kernels` or `tss gate`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gate: Option<crate::gate::UntiledGate>,
    /// The linear ranker blended with the network where a kernel's structure
    /// is new ([`crate::model::ranker`]); fitted by `tss train --blend` or
    /// `tss blend`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ranker: Option<crate::model::ranker::Ranker>,
}

/// How far outside its training range an input may lie, in spans of that
/// input's range, before it counts as far out. When an input is far out in
/// every candidate (the sizes), `tss predict` does not use the model's
/// ranking; a far-out config among fitted ones stays ranked.
pub const FAR: f64 = 1.0;

pub struct SavedModel {
    pub meta: ModelMeta,
    pub dir: PathBuf,
    nets: Vec<Mlp<Backend>>,
    /// Standard deviations of the members' outputs added to their mean
    /// ([`SavedModel::with_caution`]); 0 ranks by the mean alone.
    caution: f64,
}

fn recorder() -> BinFileRecorder<FullPrecisionSettings> {
    BinFileRecorder::<FullPrecisionSettings>::new()
}

/// Member `k`'s record path without the `.bin` the recorder appends.
fn weights_stem(dir: &Path, k: usize) -> PathBuf {
    if k == 0 { dir.join("weights") } else { dir.join(format!("weights-{k}")) }
}

/// The member records present in `dir`, in member order (without reading
/// `model.json`: for hashing a model directory cheaply).
pub fn weight_files(dir: &Path) -> Vec<PathBuf> {
    (0..).map(|k| weights_stem(dir, k).with_extension("bin")).take_while(|p| p.exists()).collect()
}

impl SavedModel {
    pub fn new(dir: &Path, meta: ModelMeta, nets: Vec<Mlp<Backend>>) -> SavedModel {
        SavedModel { meta, dir: dir.into(), nets, caution: 0.0 }
    }

    /// Ranks by the members' mean output plus `caution` times their
    /// standard deviation: a config the members disagree on (an input far
    /// from what they were fitted on) ranks as if slower. With one member
    /// nothing changes.
    pub fn with_caution(mut self, caution: f64) -> SavedModel {
        self.caution = caution;
        self
    }

    /// The ensemble's networks, in member order.
    pub fn nets(&self) -> &[Mlp<Backend>] {
        &self.nets
    }

    pub fn save(&self) -> Result<(), String> {
        std::fs::create_dir_all(&self.dir).map_err(|e| format!("{}: {e}", self.dir.display()))?;
        let json = serde_json::to_string_pretty(&self.meta).expect("metadata serialises");
        let meta_path = self.dir.join("model.json");
        std::fs::write(&meta_path, json).map_err(|e| format!("{}: {e}", meta_path.display()))?;
        for (k, net) in self.nets.iter().enumerate() {
            let stem = weights_stem(&self.dir, k);
            net.clone().save_file(&stem, &recorder()).map_err(|e| format!("{}.bin: {e}", stem.display()))?;
        }
        // A larger ensemble saved here before would leave members nobody reads.
        let mut k = self.nets.len();
        while std::fs::remove_file(weights_stem(&self.dir, k).with_extension("bin")).is_ok() {
            k += 1;
        }
        Ok(())
    }

    /// Loads `dir`, with a one-line error for a missing, foreign or corrupt model.
    pub fn load(dir: &Path) -> Result<SavedModel, String> {
        let meta_path = dir.join("model.json");
        let text = std::fs::read(&meta_path).map_err(|e| {
            format!("{}: {e} (train one with `tss train --out {}`)", meta_path.display(), dir.display())
        })?;
        let meta = parse_meta(&text, &meta_path.display().to_string())?;
        let weights = (0..meta.config.ensemble.max(1))
            .map(|k| {
                let path = weights_stem(dir, k).with_extension("bin");
                std::fs::read(&path).map_err(|e| match e.kind() {
                    std::io::ErrorKind::NotFound => {
                        format!("{}: missing (the model directory is incomplete)", path.display())
                    }
                    _ => format!("{}: {e}", path.display()),
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let names: Vec<String> =
            (0..weights.len()).map(|k| weights_stem(dir, k).with_extension("bin").display().to_string()).collect();
        let nets = members_from_bytes(&meta, &weights, &names)?;
        Ok(SavedModel::new(dir, meta, nets))
    }

    /// A model from its files' bytes (the models built into the binary):
    /// `origin` names it in errors and reports.
    pub fn from_bytes(origin: &str, json: &[u8], weights: &[&[u8]]) -> Result<SavedModel, String> {
        let meta = parse_meta(json, &format!("{origin}/model.json"))?;
        let names: Vec<String> = (0..weights.len()).map(|k| format!("{origin}/member {k}")).collect();
        if weights.len() < meta.config.ensemble.max(1) {
            return Err(format!("{origin}: {} of {} ensemble members", weights.len(), meta.config.ensemble));
        }
        let weights: Vec<Vec<u8>> = weights.iter().map(|w| w.to_vec()).collect();
        let nets = members_from_bytes(&meta, &weights, &names)?;
        Ok(SavedModel::new(Path::new(origin), meta, nets))
    }

    pub fn feature_set(&self) -> FeatureSet {
        self.meta.config.feature_set
    }

    /// Networks in the ensemble.
    pub fn members(&self) -> usize {
        self.nets.len()
    }

    /// The inputs of `row` that lie more than [`FAR`] spans outside the
    /// range this model was fitted on: where it extrapolates.
    pub fn far_inputs(&self, row: &[f64]) -> Vec<usize> {
        self.meta.normalizer.outside(row, FAR)
    }

    /// Why this model's ranking of `rows` (predicted as `predicted`) cannot
    /// be used, if it cannot: every candidate predicted the same (the
    /// network saturates), or every candidate has inputs more than [`FAR`]
    /// spans outside the training range in a column the sizes set, not the
    /// kernel's structure ([`describes_structure`]: held out by family, the
    /// stencils' nine-point reads lay there, and the gate that keeps their
    /// loops was right where the cache rule's tile ran 1.4-1.6x slower;
    /// README, "Live searches"). Where it answers, `tss predict` falls back
    /// to the cache rule and `tss eval` scores that fallback. A config the
    /// training rows lacked (a 12-row vector tile on AVX-512 for a model of
    /// AVX2 rows) is an extrapolation that stays ranked: on the Intel test
    /// rows, ranking such configs last instead made T1 worse (README,
    /// "Extrapolated configs").
    pub fn distrust(&self, rows: &[Vec<f64>], predicted: &[f64]) -> Option<String> {
        let lo = predicted.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = predicted.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if predicted.len() > 1 && (!lo.is_finite() || !hi.is_finite() || hi - lo <= 1e-9 * hi.abs()) {
            return Some("the model predicts the same time for every candidate (its inputs saturate)".into());
        }
        // The inputs far out in every candidate; the first fitted one ends it.
        let names = self.feature_set().names();
        let mut common = self.far_inputs(rows.first()?);
        common.retain(|&k| !describes_structure(names[k]));
        for r in &rows[1..] {
            if common.is_empty() {
                break;
            }
            let far = self.far_inputs(r);
            common.retain(|k| far.contains(k));
        }
        if common.is_empty() {
            return None;
        }
        let far: Vec<&str> = common.iter().map(|&k| names[k]).collect();
        Some(format!("these sizes lie far outside the model's training range (features {})", far.join(", ")))
    }

    /// Predicted seconds for raw feature rows, in one batch per member.
    pub fn predict(&self, rows: &[Vec<f64>]) -> Vec<f64> {
        let x: Vec<Vec<f32>> = rows.iter().map(|r| self.meta.normalizer.apply(r)).collect();
        let y = forward_cautious(&self.nets, &x, self.caution as f32);
        let corrected =
            y.into_iter().zip(&x).map(|(y, z)| y + self.meta.correction.as_ref().map_or(0.0, |c| c.offset(z)));
        corrected.map(|y| self.meta.config.target.decode(y)).collect()
    }
}

/// Today's UTC date, `YYYY-MM-DD` (days since 1970 to the civil calendar).
pub fn today() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Proleptic Gregorian date of day `z` after 1970-01-01, by 400-year eras.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468; // days from 0000-03-01
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097; // day of era, 0..146096
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // day of year from March 1st
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Runs `f`, turning a panic into `Err` without the panic message: Burn's
/// in-memory decoder panics on a truncated or foreign record, and the user
/// must see one line naming the file, not a backtrace note.
fn quietly<T>(f: impl FnOnce() -> T) -> std::thread::Result<T> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(hook);
    r
}

/// `model.json`, checked against this tss's format and feature set.
fn parse_meta(text: &[u8], what: &str) -> Result<ModelMeta, String> {
    let meta: ModelMeta =
        serde_json::from_slice(text).map_err(|e| format!("{what}: not a tss model description: {e}"))?;
    if meta.format != FORMAT {
        return Err(format!("{what}: model format {} (this tss reads {FORMAT}); retrain it", meta.format));
    }
    let names = meta.config.feature_set.names();
    if meta.feature_names.len() != names.len() || meta.feature_names.iter().zip(&names).any(|(a, b)| a != b) {
        return Err(format!(
            "{what}: trained on features [{}], which are not this tss's '{}' set; retrain it",
            meta.feature_names.join(" "),
            meta.config.feature_set
        ));
    }
    if meta.normalizer.min.len() != names.len() || meta.normalizer.max.len() != names.len() {
        return Err(format!("{what}: normalisation has the wrong width"));
    }
    if meta.correction.as_ref().is_some_and(|c| c.weights.len() != names.len()) {
        return Err(format!("{what}: correction has the wrong width"));
    }
    Ok(meta)
}

/// The ensemble's networks from their Burn records, with a one-line error
/// naming `names[k]` for a corrupt one.
fn members_from_bytes(meta: &ModelMeta, weights: &[Vec<u8>], names: &[String]) -> Result<Vec<Mlp<Backend>>, String> {
    let inputs = meta.config.feature_set.names().len();
    let device = Default::default();
    weights
        .iter()
        .zip(names)
        .take(meta.config.ensemble.max(1))
        .map(|(bytes, name)| {
            let shell: Mlp<Backend> = Mlp::new(inputs, meta.config.hidden, meta.config.dropout, &device);
            let loaded = quietly(|| {
                let record = BinBytesRecorder::<FullPrecisionSettings>::default().load(bytes.clone(), &device);
                record.map(|r| shell.load_record(r))
            });
            match loaded {
                Ok(Ok(net)) => Ok(net),
                Ok(Err(e)) => Err(format!("{name}: corrupt weights: {e}")),
                Err(_) => Err(format!("{name}: corrupt weights (undecodable)")),
            }
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::train::forward;

    #[test]
    fn a_pooled_model_fits_any_of_its_machines() {
        let here = crate::machine::Descriptor::detect("cc 12", "-O3 -march=native");
        let other = crate::machine::Descriptor { cpu: "Other".into(), l2: here.l2 * 2, ..here.clone() };
        assert_eq!(Provenance::default().differences_from(&here), None, "nothing recorded");
        let single = Provenance { machine: Some(other.clone()), ..Provenance::default() };
        assert_eq!(single.differences_from(&here).map(|d| d.len()), Some(2));
        let pooled = Provenance { machines: vec![other.clone(), here.clone()], ..Provenance::default() };
        assert_eq!(pooled.differences_from(&here), Some(Vec::new()));
        // Of two machines with as many differences, the one with this
        // machine's ISA and L2 is the closest, and a warning counts them.
        let same_caches = crate::machine::Descriptor { cpu: "Other".into(), l1d: here.l1d * 2, ..here.clone() };
        let pooled = Provenance { machines: vec![other, same_caches], ..Provenance::default() };
        let diffs = pooled.differences_from(&here).unwrap();
        assert!(diffs.iter().any(|d| d.starts_with("L1d ")), "{diffs:?}");
        assert!(pooled.other_machines(&diffs).starts_with("2 other machines (the closest differs in cpu"), "{diffs:?}");
        assert!(single.other_machines(&["x".into()]).starts_with("another machine (x)"));
    }

    #[test]
    fn a_machine_with_rows_of_a_few_kernels_does_not_make_the_model_its_own() {
        let here = crate::machine::Descriptor::detect("cc 12", "-O3 -march=native");
        let other = crate::machine::Descriptor { cpu: "Other".into(), l2: here.l2 * 2, ..here.clone() };
        let kernels: Vec<String> = (0..10).map(|k| format!("k{k}")).collect();
        let pooled = |counts: Vec<usize>| Provenance {
            kernels: kernels.clone(),
            machines: vec![other.clone(), here.clone()],
            machine_kernels: counts,
            ..Provenance::default()
        };
        assert_eq!(pooled(vec![10, 5]).differences_from(&here), Some(Vec::new()), "half counts");
        let few = pooled(vec![10, 4]);
        let diffs = few.differences_from(&here).unwrap();
        assert_eq!(diffs, ["only 4 of its 10 kernels"]);
        assert_eq!(few.other_machines(&diffs), "2 machines, this kind for only 4 of its 10 kernels");
        assert_eq!(pooled(Vec::new()).differences_from(&here), Some(Vec::new()), "not recorded: counts whole");
    }

    /// An untrained model of the default set, every input's range [0, 1].
    pub(crate) fn model(dir: &Path, members: usize) -> SavedModel {
        let cfg = TrainConfig { ensemble: members, ..TrainConfig::default() };
        let names = cfg.feature_set.names();
        let d = names.len();
        let meta = ModelMeta {
            format: FORMAT,
            tss_version: "test".into(),
            trained: today(),
            feature_names: names.iter().map(|s| s.to_string()).collect(),
            normalizer: Normalizer { min: vec![0.0; d], max: vec![1.0; d], log_floor: Vec::new() },
            config: cfg,
            data: Provenance::default(),
            best_epoch: 1,
            member_epochs: vec![1; members],
            train_loss: 0.0,
            val_loss: 0.0,
            scores: serde_json::Value::Null,
            correction: None,
            gate: None,
            ranker: None,
        };
        let device = Default::default();
        let nets = (0..members).map(|_| Mlp::new(d, 32, 0.2, &device)).collect();
        SavedModel::new(dir, meta, nets)
    }

    #[test]
    fn ensemble_round_trips_and_predicts_the_mean_of_its_members() {
        let dir = tempfile::tempdir().unwrap();
        let m = model(dir.path(), 3);
        let d = m.meta.feature_names.len();
        let rows = vec![vec![0.3; d], vec![0.9; d]];
        let x: Vec<Vec<f32>> = rows.iter().map(|r| m.meta.normalizer.apply(r)).collect();
        // Before saving: Burn initialises parameters lazily, on first use.
        let singles: Vec<Vec<f32>> = m.nets.iter().map(|n| forward(n, &x)).collect();
        m.save().unwrap();
        let loaded = SavedModel::load(dir.path()).unwrap();
        assert_eq!(loaded.members(), 3);
        assert_ne!(singles[0], singles[1], "members differ, so the mean is a real test");
        for (i, p) in loaded.predict(&rows).iter().enumerate() {
            let mean = singles.iter().map(|s| f64::from(s[i])).sum::<f64>() / 3.0;
            let want = m.meta.config.target.decode(mean as f32);
            assert!((p - want).abs() <= 1e-5 * want, "{p} vs {want}");
        }
        // With caution, a config ranks by the mean plus the members' spread.
        let cautious = SavedModel::load(dir.path()).unwrap().with_caution(1.0);
        for (i, p) in cautious.predict(&rows).iter().enumerate() {
            let mean = singles.iter().map(|s| f64::from(s[i])).sum::<f64>() / 3.0;
            let sd = (singles.iter().map(|s| (f64::from(s[i]) - mean).powi(2)).sum::<f64>() / 3.0).sqrt();
            let want = m.meta.config.target.decode((mean + sd) as f32);
            assert!(sd > 0.0 && (p - want).abs() <= 1e-5 * want, "{p} vs {want}");
        }
        // A smaller ensemble saved over it leaves no stale members behind.
        model(dir.path(), 1).save().unwrap();
        assert!(!dir.path().join("weights-1.bin").exists() && !dir.path().join("weights-2.bin").exists());
        assert_eq!(SavedModel::load(dir.path()).unwrap().members(), 1);
        let one = SavedModel::load(dir.path()).unwrap();
        assert_eq!(one.predict(&rows), SavedModel::load(dir.path()).unwrap().with_caution(2.0).predict(&rows));
    }

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_779), (2026, 11, 22));
    }

    #[test]
    fn missing_member_is_a_one_line_error() {
        let dir = tempfile::tempdir().unwrap();
        model(dir.path(), 2).save().unwrap();
        std::fs::remove_file(dir.path().join("weights-1.bin")).unwrap();
        let err = SavedModel::load(dir.path()).err().expect("must fail");
        assert!(err.contains("weights-1.bin") && err.contains("missing") && !err.contains('\n'), "{err}");
    }

    #[test]
    fn only_inputs_far_out_in_every_candidate_distrust_the_model() {
        let dir = tempfile::tempdir().unwrap();
        let m = model(dir.path(), 1);
        let d = m.meta.feature_names.len();
        let fitted = vec![0.5; d];
        // Every range is [0, 1]: 5 lies four spans above it.
        let far = |cols: &[usize]| {
            let mut r = fitted.clone();
            cols.iter().for_each(|&k| r[k] = 5.0);
            r
        };
        // A config the rows lacked (one candidate far out) leaves the model in charge.
        assert_eq!(m.distrust(&[fitted.clone(), far(&[1])], &[1.0, 2.0]), None);
        // Sizes far out move every candidate; the note names what they share.
        let why = m.distrust(&[far(&[0]), far(&[0, 1])], &[1.0, 2.0]).unwrap();
        let names = m.feature_set().names();
        assert!(why.contains(names[0]) && !why.contains(names[1]), "{why}");
        // More reads than any training kernel had is new code, not new sizes.
        let on = names.iter().position(|n| *n == "ON").unwrap();
        assert_eq!(m.distrust(&[far(&[on]), far(&[on])], &[1.0, 2.0]), None);
        // A saturated network is distrusted whatever its inputs.
        assert!(m.distrust(&[fitted.clone(), fitted], &[1.0, 1.0]).unwrap().contains("saturate"));
    }
}
