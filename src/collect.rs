//! Exhaustive data collection: every candidate tile of random instances of
//! each kernel, timed and checked, appended to a dataset file.
//!
//! Resumable by construction: the sweep is a pure function of the kernels,
//! seed, instance count and options, and rows already in the output file are
//! skipped, so rerunning the same command after a kill continues where it
//! stopped. Instances are visited instance-major (instance 0 of every
//! kernel, then instance 1, ...) so a partial collection covers all kernels.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::config::Config;
use crate::dataset::{Appender, Meta, Record};
use crate::harness::compile::Compiler;
use crate::harness::session::{Policy, Session};
use crate::harness::{Mode, Status, Timing, UNTILED, Variant};
use crate::instance::{Ranges, Sizes};
use crate::machine::{Caches, Descriptor};
use crate::refine::{self, register_tiles};
use crate::{Analysis, Error};

#[derive(Clone, Debug)]
pub struct Plan {
    pub kernels: Vec<PathBuf>,
    pub instances: usize,
    pub seed: u64,
    /// Where each parameter is drawn from (kernel files may add theirs).
    pub ranges: Ranges,
    /// Redraw an instance whose run would execute more statement instances
    /// ([`Analysis::work`]): wide ranges must not produce hour-long runs.
    pub max_work: f64,
    /// Redraw an instance whose run would execute fewer (up to 1000 draws):
    /// microsecond runs time noise.
    pub min_work: f64,
    pub mode: Mode,
    /// Repeat the untiled baseline like a candidate (test sets need it).
    pub baseline: bool,
    /// Extra random non-cubic tiles per instance.
    pub non_cubic: usize,
    /// Register-tile configs per instance ([`register_variants`]).
    pub registers: usize,
    /// Time the anchors and this many configs sampled from each instance's
    /// per-member space ([`crate::space`]) instead of the paper's cubic
    /// candidates (`non_cubic`, `registers` and `sample` then do not apply).
    pub space: Option<usize>,
    pub caches: Caches,
    pub policy: Policy,
    pub out: PathBuf,
    pub progress: bool,
    /// Time only this many of each instance's candidates, a seeded sample
    /// spread over the sizes (`None`: all). Quick adaptation wants many
    /// instances more than full rankings.
    pub sample: Option<usize>,
    /// Stop before starting an instance after this moment (the rows so far
    /// are kept; rerunning resumes).
    pub deadline: Option<Instant>,
    /// With `space`: time a model's top picks in each instance instead of
    /// the anchors (`tss adapt`).
    pub guide: Option<Guide>,
}

/// Adds the configs a model ranks best to each instance's sample in place
/// of the anchors: timing its own picks shows the model where it errs on
/// this machine, which a spread sample rarely does, while it learnt the
/// anchors elsewhere (`tss adapt`).
#[derive(Clone)]
pub struct Guide {
    /// The model's top predictions timed per instance.
    pub picks: usize,
    /// Predicted cost of each config of an instance, lower first.
    pub rank: std::rc::Rc<Rank>,
    /// Whether the model tells vector register tiles from plain configs
    /// ([`crate::features::FeatureSet::describes_vectors`]): a model that
    /// cannot would learn nothing from timing them.
    pub vectors: bool,
    /// Take the picks in [`crate::select::search_order`] (the best
    /// prediction of each kind of code first) rather than the plain top of
    /// the ranking, whose near-twins tell a fit little about the kinds.
    pub diverse: bool,
}

impl std::fmt::Debug for Guide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Guide").field("picks", &self.picks).finish_non_exhaustive()
    }
}

/// Scores configs of an instance (its analysis, sizes and shape) for a
/// [`Guide`]; fails where the scores need the compiler and it fails.
pub type Rank = dyn Fn(&Analysis, &Sizes, &crate::features::Shape, &[Config]) -> Result<Vec<f64>, Error>;

/// Default cap on a drawn instance's statement instances: gemm at 2048^3
/// (8.6e9, the paper's largest) passes, a 6-deep nest at 1000 does not.
pub const MAX_WORK: f64 = 1e10;

/// What a finished (or resumed) sweep did.
#[derive(Debug, Default)]
pub struct Summary {
    pub measured: usize,
    pub skipped: usize,
    pub failed: usize,
    pub wall_seconds: f64,
    /// Sum of the measured kernel run times.
    pub kernel_seconds: f64,
    /// The deadline stopped the sweep before every instance was measured.
    pub stopped: bool,
}

/// The problem sizes of instance `k` of a kernel: seeded and reproducible,
/// redrawn until a run executes between `work.0` and `work.1` statement
/// instances. A kernel whose ranges rarely reach the lower bound (a
/// matrix-vector product) keeps the largest draw under the upper one:
/// sub-millisecond runs time mostly noise, but a kernel is never dropped.
pub fn draw_sizes(a: &Analysis, ranges: &Ranges, seed: u64, k: usize, work: (f64, f64)) -> Result<Sizes, Error> {
    let kernel = stem(&a.file);
    let mix =
        kernel.bytes().fold(seed ^ 0x9e37_79b9_7f4a_7c15, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    let mut rng = StdRng::seed_from_u64(mix.wrapping_add(k as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
    let mut largest: Option<(f64, Sizes)> = None;
    for _ in 0..1000 {
        let sizes = ranges.draw(&a.scop.params, &mut rng);
        let w = a.work(&sizes)?;
        if w > work.1 {
            continue;
        }
        if w >= work.0 {
            return Ok(sizes);
        }
        if largest.as_ref().is_none_or(|(l, _)| w > *l) {
            largest = Some((w, sizes));
        }
    }
    largest.map(|(_, s)| s).ok_or_else(|| {
        Error::Usage(format!(
            "{}: no sizes in --range {ranges} run at most {:.0e} statement instances (--max-work)",
            a.file.display(),
            work.1
        ))
    })
}

/// Candidate variants of one instance: the paper's cubic tiles, plus
/// `non_cubic` random combinations of the same sizes (seeded).
pub fn variants(a: &Analysis, ps: &[i64; 3], caches: &Caches, non_cubic: usize, seed: u64) -> Vec<Variant> {
    let cands = a.kernel.candidates(ps, caches);
    let d = a.tile_dims();
    let mut out: Vec<Variant> = cands.iter().map(|&t| Variant::Tiled(Config::tiled(vec![t; d]))).collect();
    let mut rng = StdRng::seed_from_u64(seed ^ ps.iter().fold(0u64, |h, &p| h.wrapping_mul(31).wrapping_add(p as u64)));
    let mut tries = 0;
    while out.len() < cands.len() + non_cubic && d > 1 && cands.len() > 1 && tries < 100 * (non_cubic + 1) {
        tries += 1;
        let t: Vec<usize> = (0..d).map(|_| cands[rng.random_range(0..cands.len())]).collect();
        let v = Variant::Tiled(Config::tiled(t));
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// `n` register-tile configs of one instance, for a model that learns
/// unroll-and-jam: the `k`-th takes a cubic candidate from the `k`-th of `n`
/// equal slices of the ascending candidates, and the `k`-th register tile
/// [`refine::register_tiles`] would try on this machine (cycling), so every
/// tile scale meets every register tile as `n` grows. Empty when the hot
/// band has no two loops to unroll.
pub fn register_variants(a: &Analysis, ps: &[i64; 3], caches: &Caches, n: usize, vector_regs: usize) -> Vec<Variant> {
    let Some(space) = refine::Space::of(a, vector_regs, usize::MAX) else { return Vec::new() };
    let cands = a.kernel.candidates(ps, caches);
    if cands.is_empty() || register_tiles(&Config::cubic(cands[0]), &space).is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for k in 0..n {
        let t = cands[(k * cands.len() / n.max(1) + cands.len() / (2 * n.max(1))).min(cands.len() - 1)];
        let regs = register_tiles(&Config::cubic(t), &space);
        if let Some(c) = regs.get(k % regs.len().max(1)) {
            let v = Variant::Tiled(c.clone());
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

/// The anchors (unless `with_anchors` is false), `n` configs drawn from the
/// per-member space of one instance ([`crate::space`]) and `n / PACK_SHARE`
/// from its packed twins, seeded.
pub fn space_variants(
    a: &Analysis,
    sizes: &Sizes,
    caches: &Caches,
    n: usize,
    vector_regs: usize,
    seed: u64,
    with_anchors: bool,
) -> Result<Vec<Variant>, Error> {
    let space = crate::space::enumerate(a, sizes, caches, vector_regs)?;
    let anchors = crate::space::anchors(a, &space.extents, caches, vector_regs);
    let sample = space.sample(n, seed, &anchors);
    // Its own seed: the plain sample stays what it was before packing joined the space.
    let packed = crate::space::spread(&space.packed(a), n / crate::space::PACK_SHARE, seed ^ PACK_SEED);
    // Likewise for the vector tiles, at the packed sample's size.
    let vectored =
        crate::space::spread(&space.vectored(a, vector_regs), n / crate::space::PACK_SHARE, seed ^ VECTOR_SEED);
    let anchors = if with_anchors { anchors } else { Vec::new() };
    Ok(anchors.into_iter().chain(sample).chain(packed).chain(vectored).map(Variant::Tiled).collect())
}

/// The `picks` configs of an instance's space (packed twins included) that
/// `guide` ranks best, leaving out those `taken`.
fn guided_picks(
    a: &Analysis,
    sizes: &Sizes,
    shape: &crate::features::Shape,
    guide: &Guide,
    caches: &Caches,
    vector_regs: usize,
    taken: impl Fn(&Variant) -> bool,
) -> Result<Vec<Variant>, Error> {
    let space = crate::space::enumerate(a, sizes, caches, vector_regs)?;
    let mut configs = space.packed(a);
    configs.splice(0..0, space.configs.iter().cloned());
    if guide.vectors {
        configs.extend(space.vectored(a, vector_regs));
    }
    let score = (guide.rank)(a, sizes, shape, &configs)?;
    let order = pick_order(&configs, &score, a.tile_dims(), guide.diverse);
    Ok(order.into_iter().map(|k| Variant::Tiled(configs[k].clone())).filter(|v| !taken(v)).take(guide.picks).collect())
}

/// Indices of `configs` (of a `d`-member band) in the order a [`Guide`]
/// takes its picks: by predicted cost `score`, or with `diverse` the best of
/// each kind first.
fn pick_order(configs: &[Config], score: &[f64], d: usize, diverse: bool) -> Vec<usize> {
    if diverse {
        crate::select::search_order(score, |k| configs[k].search_class(d), None)
    } else {
        crate::select::ranked(score)
    }
}

/// Mixed into an instance's seed for its packed sample.
const PACK_SEED: u64 = 0x7061_636b;

/// Mixed into an instance's seed for its vector-tile sample.
const VECTOR_SEED: u64 = 0x7665_6374;

struct Work {
    kernel: usize,
    instance: String,
    sizes: Sizes,
    ps: [i64; 3],
    todo: Vec<Variant>,
    reference: Option<(f64, f64)>,
}

pub fn collect(plan: &Plan) -> Result<Summary, Error> {
    let usage = Error::Usage;
    if plan.policy.rounds != crate::machine::ROUNDS {
        return Err(usage(format!(
            "--rounds {}: collected rows are timed in harness {}'s {} rounds, so that a file's rows are comparable",
            plan.policy.rounds,
            crate::machine::HARNESS,
            crate::machine::ROUNDS
        )));
    }
    let mut analyses = Vec::new();
    let mut ranges = Vec::new();
    for k in &plan.kernels {
        let src = std::fs::read_to_string(k).map_err(|source| Error::Io { path: k.clone(), source })?;
        let declared = Ranges::declared_in(&src).map_err(|e| usage(format!("{}: {e}", k.display())))?;
        ranges.push(plan.ranges.over(&declared));
        analyses.push(crate::analyze(k, &src, plan.mode.is_parallel())?);
    }
    let params: Vec<&[String]> = analyses.iter().map(|a| &a.scop.params[..]).collect();
    if let Some(name) = plan.ranges.unmatched(&params).first() {
        return Err(usage(format!("--range: {name} is a parameter of none of the kernels")));
    }
    let (mut out, existing) = Appender::open(&plan.out).map_err(usage)?;
    let compiler = Compiler::from_env().map_err(usage)?;
    let here = Descriptor { sizes: plan.policy.sizes, ..Descriptor::detect(&compiler.version, &compiler.flags()) };
    let meta = Meta {
        cpu: here.cpu.clone(),
        l1d: plan.caches.l1d,
        l2: plan.caches.l2,
        line: plan.caches.line,
        cc: compiler.version.clone(),
        cflags: compiler.flags(),
        cpu_id: String::new(),
    };
    crate::dataset::claim(&plan.out, &existing, &here, &meta).map_err(usage)?;
    let done: HashSet<_> = existing.iter().map(Record::key).collect();
    // Untiled checksum and time per (kernel, mode, sizes), for resumed instances.
    let refs: HashMap<_, _> = existing
        .iter()
        .filter(|r| r.tile == UNTILED && r.status == Status::Ok)
        .filter_map(|r| Some(((r.kernel.clone(), r.mode.clone(), r.sizes.clone()), (r.checksum?, r.time_median?))))
        .collect();

    let mode = plan.mode.to_string();
    // One instance of one kernel: its sizes and the variants not yet in the
    // file (`None`: all are), and how many of its variants the file already
    // holds (skipped). Planning costs ISL work:
    // about 55 ms for an instance of the corpus space, 1 ms for a cubic one.
    let plan_one = |k: usize, ki: usize| -> Result<(Option<Work>, usize), Error> {
        let a = &analyses[ki];
        let name = stem(&a.file);
        let sizes = draw_sizes(a, &ranges[ki], plan.seed, k, (plan.min_work, plan.max_work))?;
        let ps = a.extents(&sizes)?;
        let mut all = vec![Variant::Untiled];
        let draw_seed = plan.seed ^ ((k as u64) << 20) ^ (ki as u64);
        if let Some(n) = plan.space {
            let regs = here.vector_registers();
            all.extend(space_variants(a, &sizes, &plan.caches, n, regs, draw_seed, plan.guide.is_none())?);
            if plan.guide.as_ref().is_some_and(|g| !g.vectors) {
                all.retain(|v| !matches!(v, Variant::Tiled(c) if c.vector > 0));
            }
        } else {
            let mut tiled = variants(a, &ps, &plan.caches, plan.non_cubic, plan.seed.wrapping_add(k as u64));
            if let Some(n) = plan.sample {
                tiled = crate::space::spread(&tiled, n, draw_seed);
            }
            tiled.extend(register_variants(a, &ps, &plan.caches, plan.registers, here.vector_registers()));
            all.extend(tiled);
        }
        let key = |v: &Variant| (name.clone(), mode.clone(), sizes.to_string(), v.to_string());
        let n_all = all.len();
        let todo: Vec<Variant> = all.into_iter().filter(|v| !done.contains(&key(v))).collect();
        let skipped = n_all - todo.len();
        if todo.is_empty() {
            return Ok((None, skipped));
        }
        let reference = refs.get(&(name.clone(), mode.clone(), sizes.to_string())).copied();
        Ok((Some(Work { kernel: ki, instance: format!("{}:{k}", plan.seed), sizes, ps, todo, reference }), skipped))
    };
    let pairs = (0..plan.instances).flat_map(|k| (0..analyses.len()).map(move |ki| (k, ki)));
    // Under a deadline each instance is planned when it is reached: a budget
    // reaches a fraction of the instances planned for it, and planning them
    // all first took 20 of `tss adapt`'s first 40 s on the corpus. The first
    // instance of each kernel is drawn first all the same, so that sizes
    // out of range fail before anything is timed.
    type Planned = Result<(Option<Work>, usize), Error>;
    let (mut work, total, instances): (Box<dyn Iterator<Item = Planned>>, usize, usize) = if plan.deadline.is_some() {
        if plan.instances > 0 {
            for (ki, a) in analyses.iter().enumerate() {
                draw_sizes(a, &ranges[ki], plan.seed, 0, (plan.min_work, plan.max_work))?;
            }
        }
        (Box::new(pairs.map(|(k, ki)| plan_one(k, ki))), 0, 0)
    } else {
        let all: Vec<(Option<Work>, usize)> = pairs.map(|(k, ki)| plan_one(k, ki)).collect::<Result<_, _>>()?;
        let total = all.iter().filter_map(|(w, _)| w.as_ref()).map(|w| w.todo.len()).sum();
        let instances = all.iter().filter(|(w, _)| w.is_some()).count();
        (Box::new(all.into_iter().map(Ok)), total, instances)
    };
    // With a deadline the bar counts seconds of the budget, not rows.
    let budget = plan.deadline.map(|d| d.saturating_duration_since(Instant::now()).as_secs().max(1));
    let bar = if plan.progress { ProgressBar::new(budget.unwrap_or(total as u64)) } else { ProgressBar::hidden() };
    let template = if budget.is_some() {
        "{elapsed_precise} [{bar:30}] of the time budget, ETA {eta} {msg}"
    } else {
        "{elapsed_precise} [{bar:30}] {pos}/{len} rows, ETA {eta} {msg}"
    };
    bar.set_style(ProgressStyle::with_template(template).expect("valid template").progress_chars("=> "));
    let mut summary = Summary::default();
    let start = Instant::now();
    let sessions: Vec<Session> = analyses
        .iter()
        .map(|a| Session::new(a, plan.mode, compiler.clone(), plan.policy))
        .collect::<Result<_, _>>()
        .map_err(usage)?;
    let mut rows_done = 0usize;
    let mut wi = 0;
    loop {
        if plan.deadline.is_some_and(|d| Instant::now() >= d) {
            summary.stopped = true;
            break;
        }
        let Some(next) = work.next() else { break };
        let (w, skipped) = next?;
        summary.skipped += skipped;
        let Some(w) = w else { continue };
        wi += 1;
        let a = &analyses[w.kernel];
        let name = stem(&a.file);
        bar.set_message(format!("{name} {}", w.sizes));
        // Only now: planning walks every instance (1000 for `tss adapt`), and
        // the shape costs ISL queries.
        let shape = a.shape(&w.sizes, here.vector_bits, here.threads(plan.mode.is_parallel()))?;
        let key = |v: &Variant| (name.clone(), mode.clone(), w.sizes.to_string(), v.to_string());
        let mut todo = w.todo.clone();
        if let (Some(g), Some(_)) = (&plan.guide, plan.space) {
            let taken = |v: &Variant| todo.contains(v) || done.contains(&key(v));
            let picks = guided_picks(a, &w.sizes, &shape, g, &plan.caches, here.vector_registers(), taken)?;
            todo.extend(picks);
        }
        let mut baseline = w.reference.map(|(_, t)| t);
        let mut failure: Option<String> = None;
        let base_reps = if plan.baseline { plan.policy.reps } else { 1 };
        let result =
            sessions[w.kernel].measure(&w.sizes, &todo, w.reference.map(|(c, _)| c), base_reps, |v, t: Timing| {
                if *v == Variant::Untiled {
                    baseline = t.median();
                    if done.contains(&key(v)) {
                        return; // re-run only for its checksum: the row exists
                    }
                }
                let config = v.feature_config(a.tile_dims());
                // The untiled code is the 1x1x1 tile to the narrower feature sets.
                let ts = a.kernel.feature_tiles(config.as_ref().map_or(&[1][..], |c| &c.tiles));
                let rec = Record {
                    kernel: name.clone(),
                    mode: mode.clone(),
                    instance: w.instance.clone(),
                    sizes: w.sizes.to_string(),
                    ps: w.ps,
                    tile: v.to_string(),
                    ts,
                    status: t.status,
                    time_min: t.min(),
                    time_median: t.median(),
                    time_spread: t.spread(),
                    reps: t.times.len(),
                    checksum: t.checksum,
                    baseline_time: baseline,
                    features: a.kernel.vector(crate::dataset::STORED, &shape, config.as_ref(), &plan.caches),
                    meta: meta.clone(),
                    unix_time: SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()),
                };
                summary.kernel_seconds += t.times.iter().sum::<f64>();
                if t.status == Status::Ok {
                    summary.measured += 1;
                } else {
                    summary.failed += 1;
                    say(&bar, format!("tss: {name} {} tile {v}: {} {}", w.sizes, t.status, t.detail));
                }
                if let Err(e) = out.append(&rec) {
                    failure.get_or_insert(e);
                }
                if budget.is_some() {
                    bar.set_position(start.elapsed().as_secs());
                } else {
                    bar.inc(1);
                }
            });
        if let Some(e) = failure {
            return Err(Error::Usage(e));
        }
        if let Err(e) = result {
            // The instance cannot be measured (e.g. its baseline crashed): say so and go on.
            say(&bar, format!("tss: {name} {}: {e}", w.sizes));
            summary.failed += todo.len();
            bar.inc(todo.len() as u64);
        }
        rows_done += todo.len();
        if bar.is_hidden() && plan.progress {
            // No terminal (e.g. nohup): one line per instance instead of a bar.
            let elapsed = start.elapsed().as_secs_f64();
            let eta = match plan.deadline {
                Some(d) => d.saturating_duration_since(Instant::now()).as_secs_f64(),
                None => elapsed / rows_done as f64 * total.saturating_sub(rows_done) as f64,
            };
            let (of, rows) = match plan.deadline {
                Some(_) => (String::new(), format!("{rows_done} rows")),
                None => (format!("/{instances}"), format!("{rows_done}/{total} rows")),
            };
            eprintln!(
                "tss: [{wi}{of}] {name} {} done; {rows}, {:.0} min elapsed, {:.0} min left",
                w.sizes,
                elapsed / 60.0,
                eta / 60.0
            );
        }
    }
    bar.finish_and_clear();
    summary.wall_seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

/// A message above the progress bar, or on stderr when there is no bar.
fn say(bar: &ProgressBar, msg: String) {
    if bar.is_hidden() { eprintln!("{msg}") } else { bar.println(msg) }
}

/// `polybench/paper/matmul.c` -> `matmul`.
pub fn stem(p: &Path) -> String {
    p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diverse_picks_take_one_of_each_kind_first() {
        let configs: Vec<Config> =
            ["64x64x64", "64x64x32", "64x64x64:4x1x1", "32x32x32"].iter().map(|t| t.parse().unwrap()).collect();
        // Both plain cubic-ish tiles are predicted best; the register tile third.
        let score = [1.0, 1.1, 1.5, 1.2];
        assert_eq!(pick_order(&configs, &score, 3, false), vec![0, 1, 3, 2]);
        assert_eq!(pick_order(&configs, &score, 3, true), vec![0, 2, 1, 3]);
    }
}
