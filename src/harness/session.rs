//! One kernel under measurement: compile its variants, run them on an
//! instance and check every result against the untiled code.

use std::path::PathBuf;
use std::time::Duration;

use super::compile::Compiler;
use super::driver::{self, Layout};
use super::worker::{Job, Runner};
use super::{Mode, Status, Timing, Variant, checksums_agree};
use crate::Analysis;
use crate::instance::Sizes;

/// Repetition policy (see [`super::worker`]) and how sizes reach the code.
#[derive(Clone, Copy, Debug)]
pub struct Policy {
    pub reps: usize,
    pub near: f64,
    pub timeout: Duration,
    pub sizes: SizeBinding,
    /// Worker processes each variant runs in ([`Session::measure`]).
    pub rounds: usize,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            reps: 3,
            near: 1.05,
            timeout: Duration::from_secs(120),
            sizes: SizeBinding::Constant,
            rounds: crate::machine::ROUNDS,
        }
    }
}

/// Whether a variant is compiled for its instance's sizes or reads them at
/// run time. With constants, gcc knows trip counts and row lengths: tiled
/// syr2k at 1536x1792 ran 2.1x faster that way (1.20 s against 2.58 s on Zen
/// 3), as fast as PolyBench's own build, whose sizes are macros. Runtime
/// sizes compile once per config for every instance (the first harness).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum SizeBinding {
    /// `-DTSS_P0=1536 ...`: one object per instance, as a program with fixed sizes.
    Constant,
    /// Sizes passed at run time: one object per config, as a library kernel.
    Runtime,
}

impl std::fmt::Display for SizeBinding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SizeBinding::Constant => "constant",
            SizeBinding::Runtime => "runtime",
        })
    }
}

pub struct Session<'a> {
    pub analysis: &'a Analysis,
    pub mode: Mode,
    pub compiler: Compiler,
    pub runner: Runner,
    pub policy: Policy,
    layout: Layout,
    untiled: String,
}

impl<'a> Session<'a> {
    /// `analysis` must have been tiled in the same mode (`--parallel`).
    pub fn new(analysis: &'a Analysis, mode: Mode, compiler: Compiler, policy: Policy) -> Result<Self, String> {
        let runner = Runner::new(mode, policy.timeout)?;
        let untiled = crate::untiled_scop(&analysis.scop, mode.is_parallel())
            .map_err(|e| format!("{}: untiled baseline: {e}", analysis.file.display()))?;
        Ok(Session { analysis, mode, compiler, runner, policy, layout: Layout::of(analysis), untiled })
    }

    /// Driver source of a variant. Tile sizes are `-D` flags of one code;
    /// unroll factors and the loop order are written into the code, so such
    /// a config is tiled again ([`crate::Config::needs_own_code`]).
    pub fn source(&self, v: &Variant) -> Result<String, String> {
        let code = match v {
            Variant::Untiled => self.untiled.clone(),
            Variant::Tiled(c) if c.needs_own_code() => {
                let opts =
                    crate::TileOptions { config: c.clone(), parallel: self.mode.is_parallel(), ..Default::default() };
                crate::tile_scop(&self.analysis.scop, &opts)
                    .map_err(|e| format!("{}: {c}: {e}", self.analysis.file.display()))?
                    .0
            }
            Variant::Tiled(_) => self.analysis.report.code.clone(),
        };
        Ok(driver::source(self.analysis, &self.layout, &code))
    }

    /// Compiles `v`; `bound` are the instance's `-D` size flags (empty for
    /// [`SizeBinding::Runtime`]).
    pub fn compile(&self, v: &Variant, bound: &[String]) -> Result<PathBuf, String> {
        let mut defines = driver::defines(self.analysis, v);
        defines.extend(bound.iter().cloned());
        self.compiler.shared_object(&self.source(v)?, &defines, self.mode.is_parallel())
    }

    /// The assembly of `v` at `sizes`, compiled as [`Session::measure`]
    /// compiles it (the driver keeps the kernel's results alive).
    pub fn assembly(&self, v: &Variant, sizes: &Sizes) -> Result<String, String> {
        let (params, extents) = self.bind(sizes)?;
        let mut defines = driver::defines(self.analysis, v);
        defines.extend(self.bound(&params, &extents));
        self.compiler.assembly(&self.source(v)?, &defines, self.mode.is_parallel())
    }

    /// The instance's parameter values and array extents at `sizes`.
    fn bind(&self, sizes: &Sizes) -> Result<(Vec<i64>, Vec<Vec<i64>>), String> {
        let extents =
            self.layout.extents(self.analysis, sizes).map_err(|e| format!("{}: {e}", self.analysis.file.display()))?;
        Ok((sizes.values.iter().map(|(_, v)| *v).collect(), extents))
    }

    /// The `-D` size flags of an instance (none for [`SizeBinding::Runtime`]).
    fn bound(&self, params: &[i64], extents: &[Vec<i64>]) -> Vec<String> {
        match self.policy.sizes {
            SizeBinding::Constant => driver::size_defines(params, extents),
            SizeBinding::Runtime => Vec::new(),
        }
    }

    /// Compiles `variants` on every core (nothing is being timed meanwhile).
    pub fn compile_all(&self, variants: &[Variant], bound: &[String]) -> Vec<Result<PathBuf, String>> {
        let n = crate::machine::cores().max(1);
        let mut out: Vec<Option<Result<PathBuf, String>>> = vec![None; variants.len()];
        std::thread::scope(|s| {
            let chunks: Vec<_> = out.chunks_mut(variants.len().div_ceil(n).max(1)).collect();
            let mut offset = 0;
            for chunk in chunks {
                let vs = &variants[offset..offset + chunk.len()];
                offset += chunk.len();
                s.spawn(move || {
                    for (slot, v) in chunk.iter_mut().zip(vs) {
                        *slot = Some(self.compile(v, bound));
                    }
                });
            }
        });
        out.into_iter().map(|r| r.expect("every slot compiled")).collect()
    }

    /// Times `variants` at `sizes`. The untiled code runs first (its
    /// checksum is the reference) unless `reference` is already known;
    /// `baseline_reps` is how often to repeat it. `on` sees every variant,
    /// untiled first.
    ///
    /// With one round `on` sees each variant as soon as it ends. With
    /// [`Policy::rounds`] > 1, the variants that ran correctly run again in
    /// that many worker processes in all, each round in another order, and
    /// `on` sees every variant at the end with one time per round (the
    /// round's fastest repetition): their median is the variant's time.
    /// On a shared machine a variant's speed moves by up to 1.6x from one
    /// process (or second) to the next while staying steadier within one,
    /// so a single round ranks candidates partly by when each ran.
    pub fn measure(
        &self,
        sizes: &Sizes,
        variants: &[Variant],
        reference: Option<f64>,
        baseline_reps: usize,
        mut on: impl FnMut(&Variant, Timing),
    ) -> Result<(), String> {
        let (params, extents) = self.bind(sizes)?;
        let bound = self.bound(&params, &extents);
        let base = Job {
            params,
            extents,
            written: self.layout.written.clone(),
            n_scalars: self.layout.scalars.len(),
            libs: Vec::new(),
            reps: self.policy.reps,
            near: self.policy.near,
            best: None,
            pin: self.runner.pin(),
            element: self.analysis.scop.element,
        };
        let rounds = self.policy.rounds.max(1);
        // With several rounds, every result waits here for the later rounds,
        // with its object when it ran correctly.
        let mut held: Vec<Held> = Vec::new();
        let mut report = |v: &Variant, t: Timing, lib: Option<&PathBuf>| {
            if rounds == 1 {
                on(v, t);
            } else {
                let lib = lib.filter(|_| t.status == Status::Ok).cloned();
                held.push((v.clone(), round_best(t), lib));
            }
        };
        let mut reference = reference;
        if reference.is_none() || variants.contains(&Variant::Untiled) {
            let lib = self
                .compile(&Variant::Untiled, &bound)
                .map_err(|e| format!("untiled baseline does not compile: {e}"))?;
            let job = Job { libs: vec![lib.clone()], reps: baseline_reps.max(1), near: f64::MAX, ..base.clone() };
            let mut got = None;
            self.runner.run(&job, |_, t| got = Some(t))?;
            let t = got.ok_or("the untiled baseline produced no result")?;
            if t.status != Status::Ok {
                return Err(format!("the untiled baseline failed ({}: {})", t.status, t.detail));
            }
            reference = t.checksum;
            report(&Variant::Untiled, t, Some(&lib));
        }
        let tiled: Vec<Variant> = variants.iter().filter(|v| **v != Variant::Untiled).cloned().collect();
        let tiled: Vec<Variant> = probe_order(tiled.len()).into_iter().map(|i| tiled[i].clone()).collect();
        let mut objects = Vec::new();
        let mut runnable = Vec::new();
        for (v, lib) in tiled.iter().zip(self.compile_all(&tiled, &bound)) {
            match lib {
                Ok(l) => {
                    objects.push(l);
                    runnable.push(v.clone());
                }
                Err(e) => report(v, Timing::failed(Status::CompileError, e), None),
            }
        }
        if !objects.is_empty() {
            let job = Job { libs: objects.clone(), ..base.clone() };
            self.runner.run(&job, |k, t| report(&runnable[k], self.checked(t, reference), Some(&objects[k])))?;
        }
        if rounds > 1 {
            self.more_rounds(&base, rounds, &mut held, reference)?;
            for (v, t, _) in held {
                on(&v, t);
            }
        }
        Ok(())
    }

    /// `t`, marked wrong when its checksum differs from the untiled code's.
    fn checked(&self, mut t: Timing, reference: Option<f64>) -> Timing {
        if let (Some(c), Some(r)) = (t.checksum, reference)
            && t.status == Status::Ok
            && !checksums_agree(c, r, self.analysis.scop.element)
        {
            t.status = Status::Wrong;
            t.detail = format!("checksum {c:e} != untiled {r:e}");
        }
        t
    }

    /// Rounds 2..=`rounds` over the variants of `held` that have an
    /// object, each in a new worker: odd rounds in reverse order, even
    /// ones rotated by half, so that no variant always runs beside the same
    /// neighbours or at the same point of a slow spell. Each round appends
    /// its fastest repetition of a variant to the variant's times; a variant
    /// that fails or answers differently in a later round takes that status,
    /// since a kernel that is right only sometimes is wrong.
    fn more_rounds(&self, base: &Job, rounds: usize, held: &mut [Held], reference: Option<f64>) -> Result<(), String> {
        let ok: Vec<usize> = (0..held.len()).filter(|&k| held[k].2.is_some()).collect();
        if ok.is_empty() {
            return Ok(());
        }
        for round in 1..rounds {
            let mut order = ok.clone();
            if round % 2 == 1 {
                order.reverse();
            } else {
                let half = order.len() / 2;
                order.rotate_left(half);
            }
            let best = order.iter().filter_map(|&k| held[k].1.min()).reduce(f64::min);
            let job = Job {
                libs: order.iter().map(|&k| held[k].2.clone().expect("ok variants have objects")).collect(),
                best,
                ..base.clone()
            };
            self.runner.run(&job, |i, t| {
                let (_, kept, _) = &mut held[order[i]];
                let t = self.checked(t, reference);
                if kept.status != Status::Ok {
                    return;
                }
                match (t.status, t.min()) {
                    (Status::Ok, Some(m)) => kept.times.push(m),
                    _ => {
                        kept.status = t.status;
                        kept.detail = format!("round {}: {}", round + 1, t.detail);
                    }
                }
            })?;
        }
        Ok(())
    }
}

/// A variant waiting for its later rounds: its timing so far and, when it
/// ran correctly, its object.
type Held = (Variant, Timing, Option<PathBuf>);

/// A round's timing reduced to its fastest repetition (the worker repeats
/// only near-best variants, so a round's repetitions are not comparable
/// between variants, but its minimum is).
fn round_best(mut t: Timing) -> Timing {
    t.times = t.min().into_iter().collect();
    t
}

/// The order in which a sweep visits `n` candidates given in ascending tile
/// size: the middle one, then the middles of the two halves, and so on
/// (breadth-first bisection). Candidates repeat only while they are near the
/// best time seen so far ([`super::worker`]); in ascending order times often
/// fall steadily, so every candidate looked "best so far" and was repeated.
/// Bisection meets a near-best tile within a few runs: replayed on the
/// shipped training data, it spends 1.56x (serial) and 1.61x (parallel) less
/// kernel time than ascending order, within 4 % of knowing the best up front.
pub fn probe_order(n: usize) -> Vec<usize> {
    let mut out = Vec::with_capacity(n);
    let mut queue = std::collections::VecDeque::from([(0, n)]);
    while let Some((lo, hi)) = queue.pop_front() {
        if lo < hi {
            let mid = lo + (hi - lo) / 2;
            out.push(mid);
            queue.push_back((lo, mid));
            queue.push_back((mid + 1, hi));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::probe_order;

    #[test]
    fn probe_order_is_a_bisection_permutation() {
        assert_eq!(probe_order(0), Vec::<usize>::new());
        assert_eq!(probe_order(1), vec![0]);
        assert_eq!(probe_order(7), vec![3, 1, 5, 0, 2, 4, 6]);
        for n in [2, 10, 45, 64] {
            let mut p = probe_order(n);
            assert_eq!(p[0], n / 2);
            p.sort();
            assert_eq!(p, (0..n).collect::<Vec<_>>(), "n = {n}");
        }
    }
}
