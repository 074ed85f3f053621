//! `tss adapt`: fits a model (the built-in one by default) to this machine
//! in minutes.
//!
//! 1. Measure, for most of the budget ([`measuring_share`]): instances of
//!    the kernels (the paper's six, built into the binary, unless the user
//!    names others) at random sizes, drawn kernel by kernel so that every
//!    kernel is seen early, each timing a sample of
//!    its candidates (many instances teach more than complete rankings of a
//!    few). A model of cubic tiles samples the paper's candidate tiles; a
//!    model of the per-dimension space (one whose features describe
//!    register tiles) times a sample of the space and its own best
//!    predictions ([`collect::Guide`]): where it errs on this machine is
//!    what fine-tuning must correct, and a spread sample rarely lands there.
//!    Rows go to a dataset file in the user's cache that belongs to this
//!    machine, so a second run resumes and adds to it. A model of the
//!    `compiled` set also reads the compiler's estimate of each kind of
//!    code ([`crate::compiled`]): the guide estimates the kinds it ranks,
//!    and the kinds of the rows are estimated before the fit, for this CPU,
//!    into the table beside the rows ([`compiled::Filler`]).
//! 2. Fit ([`Fit`]): the members of the base model continue training on
//!    these rows from their own weights, in lockstep, for 150 epochs or
//!    until the budget runs out. A model of the space trains on every
//!    instance and keeps the last epoch; a model of cubic tiles keeps the
//!    epoch (0, unchanged, included) at which the members' mean is best on a
//!    held-out quarter of the instances (see
//!    [`crate::model::train::fine_tune`]); or the networks stay frozen and
//!    a linear correction of their output is fitted in closed form (see
//!    [`crate::model::correct`]), or both in turn. Tuning can rehearse a
//!    sample of the base model's own training rows beside the new ones
//!    (`--rehearse`, or found on disk), so that it does not forget the
//!    kernels it knew.
//! 3. Save: the built-in model's adaptation goes where
//!    [`ModelSource::default_for`] finds it for this machine, so `tss
//!    predict` and the build plugins use it from then on and say so;
//!    another base model's goes beside it under its directory's name (or
//!    `--out`), to be named with `--model`.

use std::path::PathBuf;
use std::rc::Rc;
use std::time::{Duration, Instant};

use crate::collect::{self, Plan};
use crate::compiled;
use crate::dataset::STORED;
use crate::features::FeatureSet;
use crate::harness::compile::Compiler;
use crate::harness::session::Policy;
use crate::harness::{Mode, Variant};
use crate::instance::{Ranges, Sizes};
use crate::machine::{Caches, Descriptor};
use crate::model::correct::Correction;
use crate::model::saved::{ModelMeta, SavedModel};
use crate::model::source::{ModelSource, adapted_dir, provenance};
use crate::model::train::{Progress, Sample, Tuned, correction, fine_tune, instance_count, samples};
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
    /// The model to start from (`None`: the built-in model of the mode).
    pub base: Option<PathBuf>,
    /// Kernels to time (`None`: the paper's six, built in).
    pub kernels: Option<Vec<PathBuf>>,
    /// Where to save the adapted model (`None`: see the module documentation).
    pub out: Option<PathBuf>,
    /// The rows file measured into and fitted on (`None`: this machine's
    /// file in the cache).
    pub data: Option<PathBuf>,
    /// Statement-instance bounds of a drawn instance, as in `tss collect`
    /// (`None`: see [`Draws::default_for`]).
    pub min_work: Option<f64>,
    pub max_work: Option<f64>,
    /// The whole command's wall time: measuring stops at the first instance
    /// that would start after [`measuring_share`] of it, and tuning stops at
    /// its end (zero: measure nothing, refit without a deadline).
    pub budget: Duration,
    /// Candidates timed per instance, spread over the space (`None`: 8 for
    /// a cubic model, 4 for a space model).
    pub per_instance: Option<usize>,
    /// For a space model: its own best predictions timed per instance too,
    /// instead of the anchors (0: the anchors, as `tss collect` times them;
    /// `None`: 4, which adapted better than the anchors in 20 minutes on the
    /// README's Intel machine).
    pub picks: Option<usize>,
    /// Take the picks one of each kind of code first, as the measuring
    /// searches do ([`collect::Guide::diverse`]).
    pub diverse_picks: bool,
    /// Seed of the instances (a rerun with the same seed resumes).
    pub seed: u64,
    /// How the model is fitted to the rows (`None`: tuning, except a
    /// correction for a space model with nothing to rehearse; see [`Fit`]
    /// and [`rehearsal_files`]).
    pub fit: Option<Fit>,
    /// Rows files (of any machine) a sample of which tuning trains on beside
    /// this machine's rows, never validating on them: the base model's own
    /// training rows keep it from forgetting the kernels it knew.
    pub rehearse: Vec<PathBuf>,
    /// Where sizes are drawn from (`None`: see [`Draws::default_for`]).
    pub ranges: Option<Ranges>,
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
    /// Minutes spent measuring, and in all (measuring, fitting, saving).
    pub minutes: f64,
    pub total_minutes: f64,
    /// The epoch every member kept (0: the base weights were best, or the
    /// fit did not tune them).
    pub epoch: usize,
    /// Epochs tuned, and whether the budget's end stopped them.
    pub epochs_run: usize,
    /// Whether instances were held out to choose the epoch (else the last
    /// one is kept).
    pub held_out: bool,
    pub hit_deadline: bool,
    pub fit: Fit,
    /// The correction fitted, if the fit looked for one and one helped.
    pub correction: Option<Correction>,
    /// Rows rehearsed beside this machine's, and the instances they hold.
    pub rehearsed: (usize, usize),
    /// The base model's own training files, when they were what was
    /// rehearsed (found on disk, not named with `--rehearse`).
    pub rehearsed_own: Option<String>,
    /// For a model of the `compiled` set: kinds of code compiled for this
    /// CPU's estimates in this run, and the table they went to.
    pub estimated: Option<(usize, PathBuf)>,
    pub from: String,
    /// Saved where `tss predict` looks by default on this machine.
    pub by_default: bool,
}

/// Measures, fine-tunes and saves; see the module documentation.
pub fn adapt(plan: &AdaptPlan, progress: Progress) -> Result<AdaptReport, Error> {
    // The budget counts from here: loading and planning spend it too.
    let start = Instant::now();
    let usage = Error::Usage;
    let cache = Compiler::cache_dir().ok_or_else(|| usage("no cache directory: set TSS_CACHE or HOME".into()))?;
    let base_source = match &plan.base {
        Some(d) => ModelSource::Dir(d.clone()),
        None => ModelSource::Shipped { parallel: plan.parallel },
    };
    // Load first: a missing or corrupt model must not cost the budget.
    // Shared: the guide ranks with it, then it is fine-tuned.
    let base = Rc::new(base_source.load().map_err(usage)?);
    let set = base.meta.config.feature_set;
    // A model that tells register tiles apart learns from the whole space.
    let space_model = set.describes_unrolling();
    let per_instance = plan.per_instance.unwrap_or(if space_model { 4 } else { 8 });
    let picks = if space_model { plan.picks.unwrap_or(4) } else { 0 };
    let (rehearse, own_rows) = rehearsal_files(plan, &base.meta, space_model);
    let fit = plan.fit.unwrap_or(if space_model && rehearse.is_empty() { Fit::Correct } else { Fit::Tune });
    if !rehearse.is_empty() && !fit.tunes() {
        return Err(usage("--rehearse rows are trained on: use --fit tune or both, not correct".into()));
    }
    // Read before measuring, so that a wrong file costs no budget.
    let rehearsal = rehearsal_instances(&rehearse, set)?;
    let space = space_model.then_some(per_instance);
    let mode = Mode::from_parallel(plan.parallel);
    // Rows of another harness version are not comparable: each has its
    // directory; rows of the space have more feature columns than cubic ones.
    let machine =
        format!("{}-harness{}-{}", crate::model::source::here().platform(), crate::machine::HARNESS, plan.policy.sizes);
    let file = if space.is_some() { format!("{mode}-space.csv") } else { format!("{mode}.csv") };
    let data = plan.data.clone().unwrap_or_else(|| cache.join("adapt").join(&machine).join(file));
    let kernels = match &plan.kernels {
        Some(k) => k.clone(),
        None => write_kernels(&cache.join("adapt").join("kernels"))?,
    };
    // A cache written before the stored feature set grew: widen its rows
    // (timing nothing) instead of refusing them.
    if crate::dataset::stale_header(&data).map_err(usage)? {
        let s = crate::refeature::refeature(&data, &kernels)?;
        eprintln!("tss: {}: written by an older tss; {} rows refeatured to its columns", data.display(), s.rows);
    }
    let draws = Draws::default_for(space.is_some());
    let measuring = plan.budget.mul_f64(measuring_share(fit, space_model));
    // A zero budget refits on the rows already there: no plan to build.
    if plan.budget.is_zero() && !data.exists() {
        return Err(usage(format!("{}: no rows to refit on; give a budget to measure some", data.display())));
    }
    // A model of the `compiled` set reads the compiler's estimate of each
    // kind of code: of the candidates its guide ranks and of the rows it
    // fits on, kept in the table beside the rows.
    let filler = compiled_filler(set, &data)?;
    let measured_now = if plan.budget.is_zero() {
        0
    } else {
        collect::collect(&Plan {
            kernels: kernels.clone(),
            // Each is planned when reached ([`collect::collect`]): plenty for any budget.
            instances: 1000,
            seed: plan.seed,
            // The share of skinny instances follows the base model's rows.
            ranges: plan.ranges.clone().map_or(draws.ranges.clone(), |r| Ranges { skinny: draws.ranges.skinny, ..r }),
            max_work: plan.max_work.unwrap_or(draws.max_work),
            min_work: plan.min_work.unwrap_or(draws.min_work),
            mode,
            baseline: false,
            non_cubic: 0,
            registers: 0,
            space,
            caches: plan.caches,
            policy: plan.policy,
            out: data.clone(),
            progress: plan.progress,
            sample: Some(per_instance),
            deadline: Some(start + measuring),
            guide: (picks > 0)
                .then(|| guide(Rc::clone(&base), picks, plan.diverse_picks, plan.caches, mode, filler.clone())),
        })?
        .measured
    };
    let minutes = start.elapsed().as_secs_f64() / 60.0;

    let load = || dataset::load_for(std::slice::from_ref(&data), set, &kernels).map_err(usage);
    let mut records = load()?;
    if let Some(f) = &filler {
        // Rows of kernels not named this time (an earlier run's) keep what
        // the table has of them; without, they are left out of the fit.
        let named: std::collections::HashSet<String> = kernels.iter().map(|k| collect::stem(k)).collect();
        let mut f = f.borrow_mut();
        let before = f.added;
        compiled::estimate_table(records.iter().filter(|r| named.contains(&r.kernel)), &kernels, &mut f, |_, _, _| {})?;
        // New estimates: the rows take their columns from the table as it is now.
        if f.added > before {
            records = load()?;
        }
    }
    let rows = samples(&records, set);
    if rows.is_empty() {
        let why = if measured_now == 0 && !plan.budget.is_zero() {
            format!(
                "the {} s budget ended before the first instance was timed (loading and planning count too); \
                 give a longer --budget",
                plan.budget.as_secs_f64()
            )
        } else {
            "none was timed correctly with the model's features".to_string()
        };
        return Err(usage(format!("{}: no rows to fit on: {why}", data.display())));
    }
    let instances = instance_count(&rows);
    let cfg = fine_tune_config(&base.meta, space_model);
    let rehearsal = rehearsal_sample(&rehearsal, rehearsed_rows(rows.len()), plan.seed, set)?;
    let rehearsed = (rehearsal.len(), instance_count(&rehearsal));
    let deadline = (!plan.budget.is_zero()).then(|| start + plan.budget);
    let members = tuned_members(base.nets(), fit);
    let tuned = if fit.tunes() {
        fit_bar(plan.progress, deadline, &cfg, progress, |p| {
            fine_tune(members, &base.meta.normalizer, &rows, &rehearsal, &cfg, deadline, p)
        })
        .map_err(usage)?
    } else {
        Tuned { nets: members.to_vec(), epoch: 0, ran: 0, hit_deadline: false }
    };
    let Tuned { nets, epoch, ran: epochs_run, hit_deadline } = tuned;
    // A correction the base carried was fitted to its networks: replaced.
    let correction = if fit.corrects() { correction(&nets, &base.meta.normalizer, &rows, &cfg) } else { None };

    let dir = out_dir(plan).ok_or_else(|| usage("no cache directory: set TSS_CACHE or HOME".into()))?;
    let by_default = adapted_dir(plan.parallel).as_ref() == Some(&dir);
    let compiler = Compiler::from_env().map_err(usage)?;
    let mut meta = base.meta.clone();
    meta.trained = crate::model::saved::today();
    meta.best_epoch = epoch;
    meta.member_epochs = vec![epoch; nets.len()];
    meta.config.ensemble = nets.len();
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
    let rehearse_files: Vec<String> = rehearse.iter().map(|p| p.display().to_string()).collect();
    meta.scores = serde_json::json!({
        "adapted_from": from, "adapt_minutes": minutes, "fit": fit.to_string(),
        "rehearse": rehearse_files, "rehearsed_rows": rehearsed.0,
    });
    meta.correction = correction.clone();
    SavedModel::new(&dir, meta, nets).save().map_err(usage)?;
    Ok(AdaptReport {
        data,
        model: dir,
        rows: rows.len(),
        instances,
        measured_now,
        minutes,
        total_minutes: start.elapsed().as_secs_f64() / 60.0,
        epoch,
        epochs_run,
        hit_deadline,
        held_out: cfg.validation > 0.0,
        fit,
        correction,
        rehearsed,
        rehearsed_own: own_rows.then(|| rehearse_files.join(", ")),
        estimated: filler.map(|f| (f.borrow().added, f.borrow().path())),
        from,
        by_default,
    })
}

/// Rehearsed rows per row of this machine's, once past
/// [`REHEARSED_AT_LEAST`] (a few rows rehearse more each). With ten minutes of
/// rows (about 1000) on the README's Intel, rehearsing all 41 656 rows of
/// the corpus model's file picked better and far steadier across seeds
/// than 4 per row (T1 1.390-1.394 against 1.376-1.450, three seeds), in
/// about 1.5 CPU-minutes. With 2.3 hours of rows (18 000), tuning alone
/// picked better than with the whole file rehearsed (1.292 against
/// 1.323): rehearsal is for the few minutes of rows `tss adapt` measures.
const REHEARSED_PER_ROW: usize = 40;

/// Rehearsed rows at the least, whatever was measured (all of the base
/// model's rows when it has fewer). A short budget measures too few rows
/// for 40 per row to hold the base model in place: on the README's Intel,
/// six runs cut to what 2.5 minutes measure (121-289 rows) and tuned 150
/// epochs picked better than not adapting in two of six with 40 per row
/// (T1 1.381 geometric mean, against 1.355), and in six of six with 160
/// per row (1.321; about this floor).
const REHEARSED_AT_LEAST: usize = 24_000;

/// How many of the base model's rows tuning on `rows` of this machine's
/// rehearses: [`REHEARSED_PER_ROW`] each, and [`REHEARSED_AT_LEAST`].
fn rehearsed_rows(rows: usize) -> usize {
    (REHEARSED_PER_ROW * rows).max(REHEARSED_AT_LEAST)
}

/// The rows files tuning rehearses, and whether they are the base model's
/// own: `--rehearse`'s; else, for a space model with no `--fit` given, the
/// files the base model was trained on when they are on disk (as in a clone
/// of the repository, from its root). On the README's Intel machine,
/// ten-minute budgets tuned with the corpus model's own rows rehearsed
/// picked better than not adapting in six fits of six, if barely in some
/// (T1 1.308-1.353 against 1.355; models trained there from scratch on 708
/// instances 1.245-1.300), and the correction picked worse than not
/// adapting (1.366).
fn rehearsal_files(plan: &AdaptPlan, meta: &ModelMeta, space_model: bool) -> (Vec<PathBuf>, bool) {
    if !plan.rehearse.is_empty() {
        return (plan.rehearse.clone(), false);
    }
    let own: Vec<PathBuf> = meta.data.files.iter().map(PathBuf::from).collect();
    if space_model && plan.fit.is_none() && !own.is_empty() && own.iter().all(|f| f.is_file()) {
        (own, true)
    } else {
        (Vec::new(), false)
    }
}

/// The instances of the rehearsal files, as stored: read before measuring,
/// so that a wrong file costs no budget. The columns loading derives
/// (`bands`, `copy`: about 10 ms an instance, half a minute for the built-in
/// model's 2664) are computed after measuring, for the instances drawn only.
#[derive(Clone, Debug, Default)]
struct Rehearsal {
    files: Vec<PathBuf>,
    /// Each instance's key and timed rows, in key order.
    instances: Vec<(String, usize)>,
}

/// [`Rehearsal`] of `files` for a model of `set`.
fn rehearsal_instances(files: &[PathBuf], set: FeatureSet) -> Result<Rehearsal, Error> {
    let mut rows_of: std::collections::BTreeMap<String, usize> = Default::default();
    for f in files {
        let rows = samples(&dataset::load_all(std::slice::from_ref(f)).map_err(Error::Usage)?, set.min(STORED));
        if rows.is_empty() {
            return Err(no_rehearsal(f, set));
        }
        for s in rows {
            *rows_of.entry(s.group).or_default() += 1;
        }
    }
    Ok(Rehearsal { files: files.to_vec(), instances: rows_of.into_iter().collect() })
}

/// The error for a rehearsal file with no row a model of `set` can read.
fn no_rehearsal(f: &std::path::Path, set: FeatureSet) -> Error {
    let hint = if set.needs_compiler() { " (run tss estimate on it first)" } else { "" };
    Error::Usage(format!("{}: no timed rows with the model's features to rehearse{hint}", f.display()))
}

/// About `want` rows of `r`'s instances, whole ones drawn at random
/// (seeded), as samples of `set`.
fn rehearsal_sample(r: &Rehearsal, want: usize, seed: u64, set: FeatureSet) -> Result<Vec<Sample>, Error> {
    use rand::{SeedableRng, seq::SliceRandom};
    let mut order: Vec<&(String, usize)> = r.instances.iter().collect();
    order.shuffle(&mut rand::rngs::StdRng::seed_from_u64(seed));
    let mut drawn = std::collections::HashSet::new();
    let mut rows = 0;
    for (key, n) in order {
        if rows >= want {
            break;
        }
        drawn.insert(key.as_str());
        rows += n;
    }
    if drawn.is_empty() {
        return Ok(Vec::new());
    }
    let records = dataset::load_where(&r.files, set, &[], |rec| drawn.contains(rec.instance_key().as_str()))
        .map_err(Error::Usage)?;
    let out = samples(&records, set);
    match r.files.first() {
        Some(f) if out.is_empty() => Err(no_rehearsal(f, set)),
        _ => Ok(out),
    }
}

/// How `tss adapt` fits the base model to the measured rows.
///
/// On the README's Intel machine, refitting the corpus model on the same
/// rows both ways: with 6 to 9 minutes of rows the correction picked as
/// well as tuning or better (T1 1.22-1.28 against 1.24-1.29, two seeds),
/// in seconds instead of minutes and with the same result every time; with
/// an hour of rows tuning was better (1.243 against 1.271).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    /// Continue training every weight (see [`fine_tune`]).
    Tune,
    /// Keep the networks; fit a linear correction of their output.
    Correct,
    /// Tune, then fit a correction of the tuned networks.
    Both,
}

impl Fit {
    fn tunes(self) -> bool {
        self != Fit::Correct
    }
    fn corrects(self) -> bool {
        self != Fit::Tune
    }
}

impl std::fmt::Display for Fit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Fit::Tune => "tune",
            Fit::Correct => "correct",
            Fit::Both => "both",
        })
    }
}

impl std::str::FromStr for Fit {
    type Err = String;
    fn from_str(s: &str) -> Result<Fit, String> {
        match s {
            "tune" => Ok(Fit::Tune),
            "correct" => Ok(Fit::Correct),
            "both" => Ok(Fit::Both),
            _ => Err(format!("unknown fit '{s}' (tune, correct or both)")),
        }
    }
}

/// Guides the sampling by `model`: each instance also times the configs it
/// ranks best (with `diverse`, the best of each kind of code first), where a
/// fit has the most to correct, and not the anchors, which it learnt on the
/// machine it was trained on.
fn guide(
    model: Rc<SavedModel>,
    picks: usize,
    diverse: bool,
    caches: Caches,
    mode: Mode,
    filler: Option<SharedFiller>,
) -> collect::Guide {
    let set = model.feature_set();
    let rank = move |a: &crate::Analysis, sizes: &Sizes, shape: &crate::features::Shape, configs: &[crate::Config]| {
        let d = a.tile_dims();
        let mut rows: Vec<Vec<f64>> =
            configs.iter().map(|c| a.kernel.vector(set, shape, Some(&c.written_out(d)), &caches)).collect();
        if let Some(f) = &filler {
            let variants: Vec<Variant> = configs.iter().cloned().map(Variant::Tiled).collect();
            f.borrow_mut().fill(a, mode, sizes, &variants)?.extend_rows(&mut rows, &variants);
        }
        Ok(model.predict(&rows))
    };
    collect::Guide { picks, rank: Rc::new(rank), vectors: set.describes_vectors(), diverse }
}

/// The table of the compiler's estimates beside the rows, shared by the
/// guide (while measuring) and the fit (after).
type SharedFiller = Rc<std::cell::RefCell<compiled::Filler>>;

/// For a model of a set that reads the compiler ([`FeatureSet::needs_compiler`]),
/// the filler of `data`'s directory's table, native to this machine
/// (failing before any budget is spent: no llvm-mca, or rows of another
/// machine); `None` for other sets.
fn compiled_filler(set: FeatureSet, data: &std::path::Path) -> Result<Option<SharedFiller>, Error> {
    if !set.needs_compiler() {
        return Ok(None);
    }
    let mca = compiled::Mca::find().ok_or_else(|| Error::Usage(compiled::NO_MCA.into()))?;
    let dir = dataset::dir_of(data);
    std::fs::create_dir_all(dir).map_err(|e| Error::Usage(format!("{}: {e}", dir.display())))?;
    Ok(Some(Rc::new(std::cell::RefCell::new(compiled::Filler::for_rows(dir, mca, None, None)?))))
}

/// How instances are drawn unless the user says otherwise: where the base
/// model's training rows came from.
pub struct Draws {
    pub ranges: Ranges,
    pub min_work: f64,
    pub max_work: f64,
}

impl Draws {
    /// The built-in models' 1024..2048 for cubic tiles; the corpus
    /// campaign's 16..2048 with a quarter skinny and 1e7..3e8 statement
    /// instances (`scripts/collect-corpus.sh`) for the space.
    pub fn default_for(space: bool) -> Draws {
        if space {
            Draws { ranges: Ranges { skinny: 0.25, ..Ranges::all(16, 2048) }, min_work: 1e7, max_work: 3e8 }
        } else {
            Draws { ranges: Ranges::all(1024, 2048), min_work: 0.0, max_work: collect::MAX_WORK }
        }
    }
}

/// Where the adapted model goes: `--out`, else the built-in model's
/// adaptation where `tss predict` looks by default, else beside it under
/// the base directory's name (`serial-corpus-serial`).
fn out_dir(plan: &AdaptPlan) -> Option<PathBuf> {
    let default = adapted_dir(plan.parallel)?;
    Some(match (&plan.out, &plan.base) {
        (Some(out), _) => out.clone(),
        (None, None) => default,
        (None, Some(base)) => {
            let name = base.canonicalize().ok().and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()));
            let mode = Mode::from_parallel(plan.parallel);
            default.with_file_name(format!("{mode}-{}", name.unwrap_or_else(|| "model".into())))
        }
    })
}

/// The base model's training settings, scaled to a few hundred rows:
/// small batches so that each epoch takes several steps, and no early stop
/// (the fit runs for 150 epochs or until the budget's end).
///
/// A model of the space trains on every instance and keeps its last epoch.
/// Choosing the epoch on a quarter of some 70 instances kept epochs as early
/// as 2 or 8 on some runs, and those picked no better than not adapting.
/// On the README's Intel machine, six stored ten-minute runs refitted
/// 150 epochs on all their instances picked T1 1.293-1.334 (geometric mean
/// 1.308) against 1.308-1.353 (1.332) with the quarter held out; 40 and 80
/// epochs gave 1.345 and 1.317, so the epochs count. A model of cubic tiles
/// still holds a quarter out: nothing measured says it gains.
fn fine_tune_config(meta: &ModelMeta, space_model: bool) -> crate::model::TrainConfig {
    let mut cfg = meta.config.clone();
    cfg.batch_size = 32;
    cfg.max_epochs = 150;
    cfg.patience = cfg.max_epochs;
    cfg.validation = if space_model { 0.0 } else { 0.25 };
    // A few kernels: holding whole ones out would leave too few to train on.
    cfg.val_by = crate::model::ValBy::Instance;
    cfg
}

/// Members a fit tunes: at most the first [`TUNED_MEMBERS`].
const TUNED_MEMBERS: usize = 3;

/// The base's networks a fit starts from: the first [`TUNED_MEMBERS`]
/// where it tunes them. The fitting share of the budget (below) buys a
/// three-network ensemble its 150 epochs, and an epoch's cost grows with
/// each member, so a larger base (the built-in models have six since
/// session 71) would get half the epochs, and the epochs count more than
/// the members (README, "Ten minutes in all"). A member trains on its own
/// seed from the same split, so the first three are what a three-network
/// base would be. A correction keeps every member.
fn tuned_members<B>(nets: &[B], fit: Fit) -> &[B] {
    if fit.tunes() { &nets[..nets.len().min(TUNED_MEMBERS)] } else { nets }
}

/// The share of the budget spent measuring; fitting gets the rest. Rows and
/// rehearsed rows both grow with the measuring time, and so does an
/// epoch's cost, so one share fits every budget. A model of the space
/// wants its 150 epochs (see [`fine_tune_config`]): on the README's Intel
/// machine an epoch of three members on seven minutes of rows takes 1.2 to
/// 1.5 s, so three minutes tune 120 to 150 (two fresh ten-minute runs: 119
/// and 123, T1 1.300 and 1.321). Six stored runs cut to the rows
/// their first seven minutes measured and tuned 150 epochs picked as well
/// as eight minutes tuned 150 (T1 geometric mean 1.308 both) and better
/// than eight tuned 80 (1.317). A model of cubic tiles is tuned in a
/// fraction of that, and a correction is fitted in seconds.
fn measuring_share(fit: Fit, space_model: bool) -> f64 {
    match (fit.tunes(), space_model) {
        (false, _) => 0.95,
        (true, true) => 0.7,
        (true, false) => 0.8,
    }
}

/// Runs `tune` with a progress bar of its epochs, which ends by `deadline`.
fn fit_bar<T>(
    show: bool,
    deadline: Option<Instant>,
    cfg: &crate::model::TrainConfig,
    progress: Progress,
    tune: impl FnOnce(Progress) -> T,
) -> T {
    use indicatif::{ProgressBar, ProgressStyle};
    let bar = if show { ProgressBar::new(cfg.max_epochs as u64) } else { ProgressBar::hidden() };
    let by = deadline.map_or(String::new(), |d| {
        format!(" (stops within {:.0} s)", d.saturating_duration_since(Instant::now()).as_secs_f64())
    });
    let template = format!("{{elapsed_precise}} [{{bar:30}}] tuning: epoch {{pos}}/{{len}}{by}, {{msg}}");
    bar.set_style(ProgressStyle::with_template(&template).expect("valid template").progress_chars("=> "));
    let out = tune(&mut |k, e, tl, vl| {
        bar.set_position(e as u64);
        bar.set_message(format!("validation loss {vl:.4}"));
        progress(k, e, tl, vl);
    });
    bar.finish_and_clear();
    out
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
        let kept = match (self.fit.tunes(), self.epoch == 0, self.held_out) {
            (false, _, _) => "networks kept as they were".to_string(),
            (true, true, true) => {
                "the base weights scored best on the held-out instances, so the networks are unchanged".into()
            }
            (true, true, false) => "the budget ended before the first epoch, so the networks are unchanged".into(),
            (true, false, _) => format!("epoch {} kept by every member", self.epoch),
        };
        let ran = match (self.fit.tunes(), self.hit_deadline) {
            (false, _) => String::new(),
            (true, false) => format!(" ({} epochs tuned)", self.epochs_run),
            (true, true) => format!(" ({} epochs tuned before the budget ran out)", self.epochs_run),
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
        if let Some((kinds, table)) = &self.estimated {
            writeln!(
                f,
                "compiled {kinds} kinds of code for the compiler's estimates on this CPU ({})",
                table.display()
            )?;
        }
        writeln!(f, "adapted ({}) from the {}", self.fit, self.from)?;
        if self.rehearsed.0 > 0 {
            let of = match &self.rehearsed_own {
                Some(files) => format!("the base model's training rows ({files})"),
                None => "the --rehearse files".into(),
            };
            writeln!(f, "rehearsed {} rows of {} instances of {of} beside them", self.rehearsed.0, self.rehearsed.1)?;
        }
        writeln!(f, "{kept}{ran}; {:.1} min in all", self.total_minutes)?;
        match (&self.correction, self.fit.corrects()) {
            (Some(c), _) => writeln!(
                f,
                "correction fitted: cross-validated picks {:.1} % -> {:.1} % slower than each instance's fastest (ridge {:.0e})",
                100.0 * (c.cv_before.exp() - 1.0),
                100.0 * (c.cv_after.exp() - 1.0),
                c.ridge
            )?,
            (None, true) => {
                writeln!(f, "no correction: none picked better than the networks alone on held-out instances")?
            }
            (None, false) => {}
        }
        if self.by_default {
            writeln!(
                f,
                "saved {}: tss predict and the build plugins use it on this machine (TSS_MODEL_DIR or --model override it)",
                self.model.display()
            )
        } else {
            writeln!(f, "saved {}: use it with --model {}", self.model.display(), self.model.display())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::{Appender, tests::rec};
    use crate::features::FeatureSet;

    #[test]
    fn a_fit_tunes_the_first_three_members_and_a_correction_keeps_all() {
        let six = [0, 1, 2, 3, 4, 5];
        assert_eq!(tuned_members(&six, Fit::Tune), &[0, 1, 2]);
        assert_eq!(tuned_members(&six, Fit::Both), &[0, 1, 2]);
        assert_eq!(tuned_members(&six, Fit::Correct), &six);
        assert_eq!(tuned_members(&six[..1], Fit::Tune), &[0]);
    }

    /// Rehearsal takes whole instances until it has the rows asked for, and
    /// names a file that has none to give.
    #[test]
    fn rehearsal_draws_whole_instances() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("base.csv");
        let (mut a, _) = Appender::open(&p).unwrap();
        for n in [10, 20, 30] {
            for t in ["8x8x8", "16x16x16", "24x24x24", "32x32x32"] {
                a.append(&crate::dataset::Record { sizes: format!("ni={n},nj=20"), ..rec(t) }).unwrap();
            }
        }
        drop(a);
        let set = FeatureSet::Extended;
        let instances = rehearsal_instances(&[p], set).unwrap();
        assert_eq!(instances.instances.len(), 3);
        let got = rehearsal_sample(&instances, 5, 1, set).unwrap();
        assert_eq!(got.len(), 8, "two whole instances reach five rows");
        assert_eq!(instance_count(&got), 2);
        assert!(rehearsal_sample(&instances, 0, 1, set).unwrap().is_empty());
        assert!(rehearsal_instances(&[], set).unwrap().instances.is_empty());
        let empty = dir.path().join("failed.csv");
        let (mut a, _) = Appender::open(&empty).unwrap();
        a.append(&crate::dataset::Record { time_median: None, ..rec("8x8x8") }).unwrap();
        drop(a);
        let err = rehearsal_instances(&[empty], set).unwrap_err().to_string();
        assert!(err.contains("failed.csv") && err.contains("no timed rows"), "{err}");
    }

    #[test]
    fn a_few_rows_still_rehearse_the_floor() {
        assert_eq!(rehearsed_rows(0), REHEARSED_AT_LEAST);
        assert_eq!(rehearsed_rows(150), REHEARSED_AT_LEAST, "2.5 minutes of rows: the floor, not 6000");
        assert_eq!(rehearsed_rows(1000), 40_000, "ten minutes of rows: 40 per row");
    }
}
