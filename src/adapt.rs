//! `tss adapt`: fits the built-in model to this machine in minutes.
//!
//! 1. Measure: instances of the paper's six kernels (built into the binary)
//!    at random sizes of the training range, drawn kernel by kernel so that
//!    every kernel is seen early, each timing a sample of its candidate
//!    tiles spread over the sizes (many instances teach more than complete
//!    rankings of a few). Rows go to a dataset file in the user's cache
//!    that belongs to this machine, so a second run resumes and adds to it.
//! 2. Fit: every member of the built-in model continues training on these
//!    rows from its own weights and keeps the epoch (0, unchanged, included)
//!    whose choices are best on held-out instances; see
//!    [`crate::model::train::fine_tune`].
//! 3. Save where [`ModelSource::default_for`] finds it for this machine, so
//!    `tss predict` and the build plugins use it from then on and say so.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::collect::{self, Plan};
use crate::harness::Mode;
use crate::harness::compile::Compiler;
use crate::harness::session::Policy;
use crate::instance::Ranges;
use crate::machine::{Caches, Descriptor};
use crate::model::saved::{ModelMeta, SavedModel};
use crate::model::source::{ModelSource, adapted_dir, provenance};
use crate::model::train::{Progress, fine_tune, samples};
use crate::{Error, dataset};

/// The paper's kernels, built in: what adaptation measures.
const KERNELS: [(&str, &str); 6] = [
    ("matmul.c", include_str!("../polybench/paper/matmul.c")),
    ("gemm.c", include_str!("../polybench/paper/gemm.c")),
    ("dsyrk.c", include_str!("../polybench/paper/dsyrk.c")),
    ("dsyr2k.c", include_str!("../polybench/paper/dsyr2k.c")),
    ("tmm.c", include_str!("../polybench/paper/tmm.c")),
    ("trmm.c", include_str!("../polybench/paper/trmm.c")),
];

/// What to adapt and how long to measure.
pub struct AdaptPlan {
    pub parallel: bool,
    /// Measuring stops at the first instance that would start after it.
    pub budget: Duration,
    /// Candidate tiles timed per instance.
    pub per_instance: usize,
    /// Seed of the instances (a rerun with the same seed resumes).
    pub seed: u64,
    pub ranges: Ranges,
    pub caches: Caches,
    pub policy: Policy,
    pub progress: bool,
}

/// What an adaptation did.
pub struct AdaptReport {
    pub data: PathBuf,
    pub model: PathBuf,
    pub rows: usize,
    pub instances: usize,
    pub measured_now: usize,
    pub minutes: f64,
    /// Per member, the epoch kept (0: the built-in weights were best).
    pub epochs: Vec<usize>,
    pub from: String,
}

/// Measures, fine-tunes and saves; see the module documentation.
pub fn adapt(plan: &AdaptPlan, progress: Progress) -> Result<AdaptReport, Error> {
    let usage = Error::Usage;
    let cache = Compiler::cache_dir().ok_or_else(|| usage("no cache directory: set TSS_CACHE or HOME".into()))?;
    let mode = Mode::from_parallel(plan.parallel);
    // Rows of another harness version are not comparable: each has its directory.
    let machine =
        format!("{}-harness{}-{}", Descriptor::detect("", "").slug(), crate::machine::HARNESS, plan.policy.sizes);
    let data = cache.join("adapt").join(&machine).join(format!("{mode}.csv"));
    let kernels = write_kernels(&cache.join("adapt").join("kernels"))?;
    let start = Instant::now();
    let summary = collect::collect(&Plan {
        kernels,
        instances: 1000,
        seed: plan.seed,
        ranges: plan.ranges.clone(),
        max_work: collect::MAX_WORK,
        min_work: 0.0,
        mode,
        baseline: false,
        non_cubic: 0,
        registers: 0,
        space: None,
        caches: plan.caches,
        policy: plan.policy,
        out: data.clone(),
        progress: plan.progress,
        sample: Some(plan.per_instance),
        deadline: Some(start + plan.budget),
    })?;
    let minutes = start.elapsed().as_secs_f64() / 60.0;

    let base_source = ModelSource::Shipped { parallel: plan.parallel };
    let base = base_source.load().map_err(usage)?;
    let records = dataset::load(&data).map_err(usage)?;
    let rows = samples(&records, base.meta.config.feature_set);
    let instances = rows.iter().map(|s| s.group.as_str()).collect::<std::collections::BTreeSet<_>>().len();
    let cfg = fine_tune_config(&base.meta);
    let (nets, epochs) = fine_tune(base.nets(), &base.meta.normalizer, &rows, &cfg, progress).map_err(usage)?;

    let dir = adapted_dir(plan.parallel).ok_or_else(|| usage("no cache directory: set TSS_CACHE or HOME".into()))?;
    let compiler = Compiler::from_env().map_err(usage)?;
    let mut meta = base.meta.clone();
    meta.trained = crate::model::saved::today();
    meta.best_epoch = epochs.iter().sum::<usize>() / epochs.len().max(1);
    meta.member_epochs = epochs.clone();
    meta.data.files = vec![data.display().to_string()];
    meta.data.rows = rows.len();
    meta.data.instances = instances;
    meta.data.machine =
        Some(Descriptor { sizes: plan.policy.sizes, ..Descriptor::detect(&compiler.version, &compiler.flags()) });
    if let Some(r) = records.first() {
        (meta.data.cpu, meta.data.l1d, meta.data.l2, meta.data.line) =
            (r.meta.cpu.clone(), r.meta.l1d, r.meta.l2, r.meta.line);
        (meta.data.cc, meta.data.cflags) = (r.meta.cc.clone(), r.meta.cflags.clone());
    }
    let from = format!("{base_source}, {}", provenance(&base));
    meta.scores = serde_json::json!({ "adapted_from": from, "adapt_minutes": minutes });
    SavedModel::new(&dir, meta, nets).save().map_err(usage)?;
    Ok(AdaptReport {
        data,
        model: dir,
        rows: rows.len(),
        instances,
        measured_now: summary.measured,
        minutes,
        epochs,
        from,
    })
}

/// The built-in model's training settings, scaled to a few hundred rows:
/// small batches so that each epoch takes several steps, a quarter of the
/// instances held out to choose the epoch.
fn fine_tune_config(meta: &ModelMeta) -> crate::model::TrainConfig {
    let mut cfg = meta.config.clone();
    cfg.batch_size = 32;
    cfg.max_epochs = 150;
    cfg.patience = 30;
    cfg.validation = 0.25;
    // A few kernels: holding whole ones out would leave too few to train on.
    cfg.val_by = crate::model::ValBy::Instance;
    cfg
}

/// Writes the built-in kernels under `dir` (collection reads files).
fn write_kernels(dir: &std::path::Path) -> Result<Vec<PathBuf>, Error> {
    std::fs::create_dir_all(dir).map_err(|source| Error::Io { path: dir.into(), source })?;
    KERNELS
        .iter()
        .map(|(name, text)| {
            let p = dir.join(name);
            if std::fs::read_to_string(&p).ok().as_deref() != Some(*text) {
                std::fs::write(&p, text).map_err(|source| Error::Io { path: p.clone(), source })?;
            }
            Ok(p)
        })
        .collect()
}

impl std::fmt::Display for AdaptReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kept = if self.epochs.iter().all(|&e| e == 0) {
            "the built-in weights scored best on the held-out instances, so the model is unchanged".to_string()
        } else {
            format!("epochs kept per member: {:?}", self.epochs)
        };
        writeln!(
            f,
            "measured {} rows in {:.1} min; {} rows of {} instances in {}",
            self.measured_now,
            self.minutes,
            self.rows,
            self.instances,
            self.data.display()
        )?;
        writeln!(f, "fine-tuned from the {}", self.from)?;
        writeln!(f, "{kept}")?;
        writeln!(
            f,
            "saved {}: tss predict and the build plugins use it on this machine (TSS_MODEL_DIR or --model override it)",
            self.model.display()
        )
    }
}
