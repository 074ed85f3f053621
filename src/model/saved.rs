//! A trained model on disk: `DIR/model.json` (configuration, normalisation,
//! feature names, training data provenance, scores) and `DIR/weights.bin`
//! (the Burn record, full precision).

use std::path::{Path, PathBuf};

use burn::module::Module;
use burn::record::{BinFileRecorder, FullPrecisionSettings};
use serde::{Deserialize, Serialize};

use super::net::Mlp;
use super::train::forward;
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
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelMeta {
    pub format: u32,
    pub tss_version: String,
    pub config: TrainConfig,
    pub feature_names: Vec<String>,
    pub normalizer: Normalizer,
    pub data: Provenance,
    pub best_epoch: usize,
    pub train_loss: f64,
    pub val_loss: f64,
    /// Free-form scores (e.g. validation tile-selection metrics).
    #[serde(default)]
    pub scores: serde_json::Value,
}

pub struct SavedModel {
    pub meta: ModelMeta,
    pub dir: PathBuf,
    net: Mlp<Backend>,
}

fn recorder() -> BinFileRecorder<FullPrecisionSettings> {
    BinFileRecorder::<FullPrecisionSettings>::new()
}

impl SavedModel {
    pub fn new(dir: &Path, meta: ModelMeta, net: Mlp<Backend>) -> SavedModel {
        SavedModel { meta, dir: dir.into(), net }
    }

    pub fn save(&self) -> Result<(), String> {
        std::fs::create_dir_all(&self.dir).map_err(|e| format!("{}: {e}", self.dir.display()))?;
        let json = serde_json::to_string_pretty(&self.meta).expect("metadata serialises");
        let meta_path = self.dir.join("model.json");
        std::fs::write(&meta_path, json).map_err(|e| format!("{}: {e}", meta_path.display()))?;
        self.net
            .clone()
            .save_file(self.dir.join("weights"), &recorder())
            .map_err(|e| format!("{}: {e}", self.dir.join("weights.bin").display()))
    }

    /// Loads `dir`, with a one-line error for a missing, foreign or corrupt model.
    pub fn load(dir: &Path) -> Result<SavedModel, String> {
        let meta_path = dir.join("model.json");
        let text = std::fs::read_to_string(&meta_path).map_err(|e| {
            format!("{}: {e} (train one with `tss train --out {}`)", meta_path.display(), dir.display())
        })?;
        let meta: ModelMeta = serde_json::from_str(&text)
            .map_err(|e| format!("{}: not a tss model description: {e}", meta_path.display()))?;
        if meta.format != FORMAT {
            return Err(format!(
                "{}: model format {} (this tss reads {FORMAT}); retrain it",
                meta_path.display(),
                meta.format
            ));
        }
        let names = meta.config.feature_set.names();
        if meta.feature_names.len() != names.len() || meta.feature_names.iter().zip(&names).any(|(a, b)| a != b) {
            return Err(format!(
                "{}: trained on features [{}], which are not this tss's '{}' set; retrain it",
                meta_path.display(),
                meta.feature_names.join(" "),
                meta.config.feature_set
            ));
        }
        if meta.normalizer.min.len() != names.len() || meta.normalizer.max.len() != names.len() {
            return Err(format!("{}: normalisation has the wrong width", meta_path.display()));
        }
        let weights = dir.join("weights.bin");
        if !weights.exists() {
            return Err(format!("{}: missing (the model directory is incomplete)", weights.display()));
        }
        let device = Default::default();
        let shell: Mlp<Backend> = Mlp::new(names.len(), meta.config.hidden, meta.config.dropout, &device);
        // A truncated or foreign file must be an error, not a panic inside the decoder.
        let loaded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            shell.load_file(dir.join("weights"), &recorder(), &device)
        }));
        let net = match loaded {
            Ok(Ok(net)) => net,
            Ok(Err(e)) => return Err(format!("{}: corrupt weights: {e}", weights.display())),
            Err(_) => return Err(format!("{}: corrupt weights (undecodable)", weights.display())),
        };
        Ok(SavedModel { meta, dir: dir.into(), net })
    }

    pub fn feature_set(&self) -> FeatureSet {
        self.meta.config.feature_set
    }

    /// Predicted seconds for raw feature rows, in one batch.
    pub fn predict(&self, rows: &[Vec<f64>]) -> Vec<f64> {
        let x: Vec<Vec<f32>> = rows.iter().map(|r| self.meta.normalizer.apply(r)).collect();
        forward(&self.net, &x).into_iter().map(|y| self.meta.config.target.decode(y)).collect()
    }
}
