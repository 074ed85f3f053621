//! Choosing tile sizes for a kernel: the whole method behind `tss predict`,
//! as a library call a `build.rs` can make ([`choose_tiles`]).
//!
//! Tile the SCoP, enumerate the paper's candidates for the given sizes,
//! compute their features, predict all of them in one batch, keep the best
//! 10 % and pick one (T1, T6-Random, or T6-Search which compiles and times
//! the kept ones, then refines the fastest with register tiles and tile
//! shapes, [`crate::refine`]). Results are cached by kernel text, sizes, model and
//! machine, so rebuilds do not recompute them.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::compiled;
use crate::dataset::STORED;
use crate::features::Shape;
use crate::gate::UntiledTraits;
use crate::harness::compile::{Compiler, fnv1a};
use crate::harness::session::{Policy, Session};
use crate::harness::{Mode, Status, UNTILED, Variant};
use crate::instance::Sizes;
use crate::machine::{Caches, Descriptor, MachineInfo, human};
use crate::model::ranker::Ranker;
use crate::model::saved::SavedModel;
use crate::model::source::ModelSource;
use crate::refine::{self, Space, Tried};
use crate::select::{
    OriginalPlace, Strategy, cache_rule, keep_best, keep_diverse, neighbours, random_pick, ranked, tiles_first,
};
use crate::{Analysis, Error, TileOptions};
use crate::{Config, Form};

#[derive(Clone, Debug)]
pub struct ChooseOptions {
    /// The model: built in, or a directory.
    pub model: ModelSource,
    pub strategy: Strategy,
    pub parallel: bool,
    pub caches: Caches,
    /// Seed of T6-Random.
    pub seed: u64,
    /// Timing policy of T6-Search.
    pub policy: Policy,
    /// Where choices are cached (`None`: no cache).
    pub cache: Option<PathBuf>,
    /// Measurements T6-Search spends after its pick on register tiles and
    /// tile shapes ([`crate::refine`]); 0 keeps the model's cubic tile.
    pub refine: usize,
    /// Candidates T6-Search times before refining (`None`:
    /// [`crate::select::search_count`] of them).
    pub search: Option<usize>,
    /// T1 leaves out kinds of code the compiler estimates far slower than
    /// the best ([`crate::compiled`]).
    pub compiled: bool,
}

/// Default of [`ChooseOptions::refine`]: the register round and two shape
/// rounds.
pub const REFINE_BUDGET: usize = 16;

impl ChooseOptions {
    /// The shipped model of the mode, T6-Search (the best method on the test
    /// sets; see the README), this machine's caches, the default cache.
    pub fn new(parallel: bool) -> ChooseOptions {
        ChooseOptions {
            model: ModelSource::default_for(parallel),
            strategy: Strategy::T6Search,
            parallel,
            caches: Caches::detect(),
            seed: 1,
            policy: Policy::default(),
            cache: Compiler::cache_dir().map(|d| d.join("choices")),
            refine: REFINE_BUDGET,
            search: None,
            compiled: false,
        }
    }
}

/// One kept candidate.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Kept {
    pub tile: Vec<usize>,
    /// Unroll-and-jam factors (empty: none; only models whose features
    /// describe unrolling rank register tiles).
    #[serde(default)]
    pub unroll: Vec<usize>,
    /// [`Config::sink`].
    #[serde(default = "yes")]
    pub sink: bool,
    /// [`Config::pack`].
    #[serde(default)]
    pub pack: bool,
    /// [`Config::vector`].
    #[serde(default)]
    pub vector: usize,
    /// [`Config::form`].
    #[serde(default)]
    pub form: Form,
    pub predicted: f64,
    /// Measured median seconds (T6-Search only).
    pub measured: Option<f64>,
    /// The untiled original rather than a tile (models whose features
    /// describe it rank it beside the tiles; `tile` is then empty).
    #[serde(default)]
    pub untiled: bool,
}

/// The decision, as reported and cached.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Choice {
    pub file: String,
    pub sizes: String,
    pub strategy: Strategy,
    /// Chosen size per band member (`TSS_T1`, `TSS_T2`, ...).
    pub tile: Vec<usize>,
    /// Chosen unroll-and-jam factor per band member (empty: none); compiled
    /// into the code, not a macro.
    #[serde(default)]
    pub unroll: Vec<usize>,
    /// [`Config::sink`] of the choice.
    #[serde(default = "yes")]
    pub sink: bool,
    /// [`Config::pack`] of the choice.
    #[serde(default)]
    pub pack: bool,
    /// [`Config::vector`] of the choice.
    #[serde(default)]
    pub vector: usize,
    /// [`Config::form`] of the choice.
    #[serde(default)]
    pub form: Form,
    pub predicted: f64,
    /// What predictions are ([`crate::model::TrainConfig::prediction_unit`]).
    #[serde(default = "seconds")]
    pub unit: String,
    pub candidates: usize,
    pub kept: Vec<Kept>,
    /// Measured median seconds of the untiled original (T6-Search only,
    /// which runs it anyway as the reference the candidates are checked against).
    #[serde(default)]
    pub untiled: Option<f64>,
    /// What T6-Search's refinement timed, its starting point first.
    #[serde(default)]
    pub refined: Vec<Tried>,
    /// The choice is the untiled original (`tile` is empty and `code` is
    /// the input unchanged): the model, or T6-Search's timing, found that
    /// tiling does not pay at these sizes.
    #[serde(default)]
    pub original: bool,
    /// With `--compiled`: each kind of code T1 weighed and the compiler's
    /// estimate of its floating-point lanes per cycle, highest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub compiled: Vec<(String, f64)>,
    pub model: String,
    pub warnings: Vec<String>,
    #[serde(skip)]
    pub from_cache: bool,
    /// The file with every SCoP tiled and the chosen sizes as defaults.
    #[serde(skip)]
    pub code: String,
}

/// The config of a kept candidate or a choice, from the fields they record.
fn recorded(tile: &[usize], unroll: &[usize], sink: bool, pack: bool, vector: usize, form: Form) -> Config {
    Config { tiles: tile.to_vec(), unroll: unroll.to_vec(), sink, pack, vector, form }
}

/// [`Config::sink`] of choices cached before it existed.
fn yes() -> bool {
    true
}

/// Unit of choices cached before units were recorded.
fn seconds() -> String {
    " s".into()
}

impl Kept {
    pub fn config(&self) -> Config {
        recorded(&self.tile, &self.unroll, self.sink, self.pack, self.vector, self.form)
    }

    /// How reports name it: the config, or `untiled`.
    pub fn label(&self) -> String {
        if self.untiled { UNTILED.to_string() } else { self.config().to_string() }
    }

    fn of(v: &Variant, d: usize, predicted: f64) -> Kept {
        let c = v.feature_config(d);
        Kept {
            tile: c.as_ref().map_or_else(Vec::new, |c| c.tiles_for(d)),
            unroll: c.as_ref().map_or_else(Vec::new, |c| c.unroll_for(d)),
            sink: c.as_ref().is_none_or(|c| c.sink),
            pack: c.as_ref().is_some_and(|c| c.pack),
            vector: c.as_ref().map_or(0, |c| c.vector),
            form: c.as_ref().map_or(Form::Stepped, |c| c.form),
            predicted,
            measured: None,
            untiled: c.is_none(),
        }
    }
}

impl Choice {
    /// The chosen transformation.
    pub fn config(&self) -> Config {
        recorded(&self.tile, &self.unroll, self.sink, self.pack, self.vector, self.form)
    }
    /// `-DTSS_T1=64 -DTSS_T2=64 ...`
    pub fn defines(&self) -> String {
        self.tile.iter().enumerate().map(|(k, t)| format!("-DTSS_T{}={t}", k + 1)).collect::<Vec<_>>().join(" ")
    }
    /// How reports name the choice: the config, or `untiled`.
    pub fn label(&self) -> String {
        if self.original { UNTILED.to_string() } else { self.config().to_string() }
    }
    /// `#define TSS_T1 64` lines.
    pub fn header(&self) -> String {
        let mut s = format!("/* tss predict {} {} ({}): {} */\n", self.file, self.sizes, self.strategy, self.label());
        for (k, t) in self.tile.iter().enumerate() {
            s.push_str(&format!("#define TSS_T{} {t}\n", k + 1));
        }
        s
    }
}

pub fn choose_tiles(file: &Path, sizes: &str, opts: &ChooseOptions) -> Result<Choice, Error> {
    let src = std::fs::read_to_string(file).map_err(|source| Error::Io { path: file.into(), source })?;
    let a = crate::analyze(file, &src, opts.parallel)?;
    let sizes = Sizes::parse(&a.scop.params, sizes).map_err(Error::Usage)?;
    let d = a.tile_dims();
    // The chosen code: the input unchanged for the original, else tiled.
    let code = |c: &Choice| -> Result<String, Error> {
        if c.original {
            return Ok(src.clone());
        }
        let opts = TileOptions { config: c.config(), parallel: opts.parallel, ..TileOptions::default() };
        Ok(crate::tile_source(file, &src, &opts)?.0)
    };
    let key = cache_key(&src, &sizes, opts);
    if let Some(mut c) = key.as_ref().and_then(|k| read_cache(opts, k)) {
        c.from_cache = true;
        c.code = code(&c)?;
        return Ok(c);
    }
    let model = opts.model.load().map_err(Error::Usage)?;
    let mut warnings = provenance_warnings(&model, opts);
    let ps = a.extents(&sizes)?;
    let sizes_list = a.kernel.candidates(&ps, &opts.caches);
    let set = model.feature_set();
    let here = Descriptor::detect("", "");
    let shape = a.shape(&sizes, here.vector_bits, here.threads(opts.parallel))?;
    let mut variants: Vec<Variant> =
        candidate_configs(&a, &sizes_list, set, (&sizes, &shape), &opts.caches, here.vector_registers())?
            .into_iter()
            .map(Variant::Tiled)
            .collect();
    if set.describes_untiled() {
        variants.push(Variant::Untiled);
    }
    let mut rows: Vec<Vec<f64>> =
        variants.iter().map(|v| a.kernel.vector(set, &shape, v.feature_config(d).as_ref(), &opts.caches)).collect();
    // A model of the `compiled` set reads each kind's estimate; `--compiled`
    // reuses them below.
    let kind_rates = if set.needs_compiler() { Some(estimate_kinds(&a, &sizes, opts, &variants)?) } else { None };
    if let Some(rate) = &kind_rates {
        let rates = compiled::KernelRates {
            dims: d,
            rate: rate.iter().map(|(k, r)| (compiled::kind_label(k), Some(*r))).collect(),
        };
        rates.extend_rows(&mut rows, &variants);
    }
    let predicted = model.predict(&rows);
    let (order, new) = blend_where_new(&model, &a, &shape, &variants, &opts.caches, &predicted, &mut warnings);
    let original = variants.iter().position(|v| matches!(v, Variant::Untiled));
    // The original and what its loops do, read by the rules that never put
    // it first and by the gate; models without an untiled candidate need neither.
    let as_written = original.map(|u| (u, a.kernel.untiled_traits(&shape, &opts.caches)));
    let never_first = as_written.as_ref().and_then(|(_, traits)| traits.never_first());
    let rule = cache_rule(&sizes_list, |t| a.kernel.working_set(&vec![t; d]), opts.caches.l2);
    let far = model.distrust(&rows, &predicted).zip(rule);
    let ruled = far.is_some();
    // Far outside the training range the gate's estimate extrapolates like
    // the network's: the cache rule decides alone.
    let gated = match &as_written {
        Some((_, traits)) if !ruled => {
            let gate_set = model.meta.gate.as_ref().and_then(|g| g.linear.as_ref());
            let features = gate_set.map(|l| a.kernel.vector(l.set, &shape, None, &opts.caches));
            gate_verdict(&model, traits, features.as_deref(), &mut warnings)
        }
        _ => None,
    };
    let place = OriginalPlace::of(never_first.is_some(), new, gated.is_some());
    let order = match original {
        Some(u) => rank_original(order, u, never_first, place, &mut warnings),
        None => order,
    };
    // T6-Search times one of each kind of code first ([`search_order`]).
    let best = match opts.strategy {
        Strategy::T6Search => keep_diverse(&order, |k| variants[k].search_class(d), original, opts.search),
        _ => keep_best(&order),
    };
    let kept_idx = match far {
        Some((why, rule)) => {
            let what = match opts.strategy {
                Strategy::T6Search => format!("timing the cache rule's tile {rule} and its neighbours"),
                _ => format!("tile {rule} from the cache rule (the largest whose working set fits L2)"),
            };
            warnings.push(format!("{why}: {what} instead of the model's picks"));
            neighbours(&sizes_list, rule, best.len())
        }
        _ => {
            let out = model.meta.normalizer.outside(&rows[best[0]], 0.25);
            if !out.is_empty() {
                let names: Vec<&str> = out.iter().map(|&k| set.names()[k]).collect();
                warnings.push(format!(
                    "features {} lie outside the model's training range: the prediction is an extrapolation; prefer --mode t6-search",
                    names.join(", ")
                ));
            }
            best
        }
    };
    if let Some(why) = &gated {
        warnings.push(match never_first {
            Some(never) => format!(
                "the untiled gate fired ({why}), but the innermost loop as written {never}: the best-ranked tile stays \
                 first"
            ),
            None => format!("the untiled gate fired ({why}): the loops as written come first"),
        });
    }
    let kept_idx = place.front(kept_idx, original);
    let mut estimates = Vec::new();
    let kept_idx = match opts.strategy {
        Strategy::T6Search => with_original(kept_idx, original),
        Strategy::T1 if opts.compiled && !ruled => {
            let demoted = never_first.is_some();
            let kept;
            // The kinds the model's features were estimated for need no second compile.
            let estimate = |usable: &[Variant]| match &kind_rates {
                Some(all) => Ok(all.iter().filter(|(k, _)| usable.contains(k)).map(|(k, r)| (k.clone(), *r)).collect()),
                None => estimate_kinds(&a, &sizes, opts, usable),
            };
            (kept, estimates) = compiled_first(d, &variants, &order, kept_idx, demoted, estimate)?;
            kept
        }
        _ => kept_idx,
    };
    let mut kept: Vec<Kept> = kept_idx.iter().map(|&k| Kept::of(&variants[k], d, predicted[k])).collect();
    let mut untiled = None;
    let mut refined = Vec::new();
    let pick = match opts.strategy {
        Strategy::T1 => 0,
        Strategy::T6Random => {
            let seq: Vec<usize> = (0..kept.len()).collect();
            random_pick(&seq, opts.seed).unwrap_or(0)
        }
        Strategy::T6Search => {
            let err = |e: String| Error::Usage(format!("{}: {e}", file.display()));
            let mut timer = Timer::new(&a, &sizes, opts).map_err(err)?;
            let pick = search(&mut timer, &mut kept).map_err(err)?;
            if !kept[pick].untiled {
                let failure;
                (refined, failure) = refine_pick(&a, &mut timer, &kept[pick], &ps, opts);
                warnings.extend(failure);
            }
            untiled = timer.untiled;
            let best = refine::fastest(&refined).and_then(|t| t.seconds).or(kept[pick].measured);
            if let (Some(u), Some(m), false) = (untiled, best, kept[pick].untiled)
                && u < m * UNTILED_MARGIN
            {
                warnings.push(format!(
                    "the untiled original ran in {u:.4} s, faster than the best kept tile ({m:.4} s): \
                     tiling does not pay at these sizes with these flags; consider keeping the original loops"
                ));
            }
            pick
        }
    };
    let original = kept[pick].untiled && refined.is_empty();
    let config = refine::fastest(&refined).map_or_else(|| kept[pick].config(), |t| t.config.clone());
    let choice = Choice {
        file: file.display().to_string(),
        sizes: sizes.to_string(),
        strategy: opts.strategy,
        tile: if original { Vec::new() } else { config.tiles_for(d) },
        unroll: if original { Vec::new() } else { config.unroll_for(d) },
        sink: original || config.sink,
        pack: !original && config.pack,
        vector: if original { 0 } else { config.vector },
        form: if original { Form::Stepped } else { config.form },
        predicted: kept[pick].predicted,
        unit: model.meta.config.prediction_unit().to_string(),
        candidates: variants.len(),
        kept,
        untiled,
        refined,
        original,
        compiled: estimates,
        model: opts.model.to_string(),
        warnings,
        from_cache: false,
        code: String::new(),
    };
    if let Some(k) = &key {
        write_cache(opts, k, &choice);
    }
    Ok(Choice { code: code(&choice)?, ..choice })
}

/// Why the original is ranked after the tiles on a loop structure new to
/// the model: there only the untiled gate keeps it. Held out, the network's
/// own first rank of it was the costliest error on new kernels (4x on a
/// 9-point Jacobi, 1.8-2.1x on a symmetric matrix-vector product, README
/// "A wider corpus").
const NEW_STRUCTURE: &str = "their loop structure is new to the model, where only its untiled gate keeps them";

/// The scores to rank `variants` by: the network's `predicted` values, or,
/// where the model has a blended ranker and this kernel's loop structure is
/// not one it trained on, their blend with the ranker's estimates
/// ([`crate::model::ranker`]), which `warnings` then mentions. Also whether
/// it blended (the structure is new).
fn blend_where_new(
    model: &SavedModel,
    a: &Analysis,
    shape: &Shape,
    variants: &[Variant],
    caches: &Caches,
    predicted: &[f64],
    warnings: &mut Vec<String>,
) -> (Vec<f64>, bool) {
    let d = a.tile_dims();
    let new = |r: &&Ranker| r.applies(Some(&a.kernel.vector(STORED, shape, None, caches)));
    let Some(r) = model.meta.ranker.as_ref().filter(new) else {
        return (predicted.to_vec(), false);
    };
    let stored: Vec<Vec<f64>> =
        variants.iter().map(|v| a.kernel.vector(STORED, shape, v.feature_config(d).as_ref(), caches)).collect();
    match r.blend(predicted, &stored) {
        Some(order) => {
            warnings.push(
                "this loop structure is new to the model: its ranking is blended with a linear estimate, which \
                 extrapolates more gently (README, \"A learned untiled gate\")"
                    .into(),
            );
            (order, true)
        }
        None => (predicted.to_vec(), false),
    }
}

/// `order` with the untiled original `u` after every tile where its `place`
/// says the network's rank of it does not count: its innermost loop as
/// written `never_first` says why, or the loop structure is new to the
/// model, where only the gate ([`gate_verdict`]) can still put it first.
fn rank_original(
    order: Vec<f64>,
    u: usize,
    never_first: Option<&str>,
    place: OriginalPlace,
    warnings: &mut Vec<String>,
) -> Vec<f64> {
    if !place.last {
        return order;
    }
    let why = never_first.map_or_else(|| NEW_STRUCTURE.to_string(), |never| format!("their innermost loop {never}"));
    original_last(&order, u, &why, warnings)
}

/// `order` with the untiled original `u` ranked last, `why` (its innermost
/// loop as written walks memory at a stride or carries a recurrence,
/// [`UntiledTraits::never_first`], or the structure is new to the model);
/// says so in `warnings` where the model had ranked it first. T6-Search
/// still times it.
fn original_last(order: &[f64], u: usize, why: &str, warnings: &mut Vec<String>) -> Vec<f64> {
    if ranked(order).first() == Some(&u) {
        warnings
            .push(format!("the model ranks the loops as written first, but {why}: the best-ranked tile comes first"));
    }
    tiles_first(order, u)
}

/// Why the model's untiled gate ([`crate::gate`]) fires on the original's
/// `traits` (the rules) or its `features` (the linear gate's set), if it
/// does: where [`OriginalPlace`] allows, T1 then keeps the loops as written
/// and the searches time them first. A gate fitted on another machine's rows
/// is not applied (`warnings` says so).
fn gate_verdict(
    model: &SavedModel,
    traits: &UntiledTraits,
    features: Option<&[f64]>,
    warnings: &mut Vec<String>,
) -> Option<String> {
    let gate = model.meta.gate.as_ref()?;
    let here = Compiler::from_env().ok().map(|c| Descriptor::detect(&c.version, &c.flags()));
    let elsewhere = gate.machine.as_ref().zip(here.as_ref()).map(|(m, h)| m.differences(h)).unwrap_or_default();
    if !elsewhere.is_empty() {
        warnings.push(format!(
            "the model's untiled gate was fitted on another machine's rows ({}): not applied; tss gate refits it on \
             rows of this one",
            elsewhere.join(", ")
        ));
        return None;
    }
    gate.why(Some(traits), features)
}

/// `kept` with the untiled original `u` added last where T6-Search would
/// not time it otherwise: the cache rule's neighbours, and `--search 1`
/// ([`keep_diverse`] keeps it second otherwise). It runs anyway, as the reference
/// every tile is checked against, so its time costs nothing, and where
/// tiling does not pay it is the answer: held-out sjacobi-2d at N=223 ran
/// untiled 3.2x faster than every tile the cache rule's neighbours offered
/// (README, "Live searches").
fn with_original(mut kept: Vec<usize>, original: Option<usize>) -> Vec<usize> {
    if let Some(u) = original.filter(|u| !kept.contains(u)) {
        kept.push(u);
    }
    kept
}

/// The configs the model ranks: the cubic `tiles` (in order, so indices
/// into `tiles` are indices here too), then, when its features describe
/// unrolling, every register tile the refinement would try at each of them,
/// then, for the sets that also describe the untiled code (the corpus
/// models'), the instance's config space and its anchors (README, "Config
/// space"): what such a model was trained on, less the packing configs
/// whose copies outgrow L2 ([`crate::space::copies_fit`]; plain, so the
/// cubic tiles keep their indices). `instance` is the sizes and their
/// shape (whose member extents the copies are sized by).
fn candidate_configs(
    a: &crate::Analysis,
    tiles: &[usize],
    set: crate::features::FeatureSet,
    (sizes, shape): (&Sizes, &Shape),
    caches: &Caches,
    regs: usize,
) -> Result<Vec<Config>, Error> {
    let d = a.tile_dims();
    let mut out: Vec<Config> = tiles.iter().map(|&t| Config::tiled(vec![t; d])).collect();
    if let (true, Some(space)) = (set.describes_unrolling(), Space::of(a, regs, usize::MAX)) {
        for &t in tiles {
            out.extend(refine::register_tiles(&Config::tiled(vec![t; d]), &space));
        }
    }
    if set.describes_untiled() {
        let space = crate::space::enumerate(a, sizes, caches, regs)?;
        let anchors = crate::space::anchors(a, &space.extents, caches, regs);
        let mut seen: std::collections::HashSet<Config> = out.iter().map(|c| c.written_out(d)).collect();
        let packed = if set.describes_packing() { space.packed(a) } else { Vec::new() };
        let vectored = if set.describes_vectors() { space.vectored(a, regs) } else { Vec::new() };
        let anchors = anchors.into_iter().filter(|c| set.describes_vectors() || c.vector == 0);
        for c in anchors.chain(space.configs).chain(packed).chain(vectored) {
            if seen.insert(c.written_out(d)) {
                out.push(c);
            }
        }
    }
    out.retain(|c| crate::space::copies_fit(a, shape, c, caches.l2));
    Ok(out)
}

/// Each kind of code's name and the compiler's lanes per cycle for it.
type Estimated = Vec<(String, f64)>;

/// `kept` led by the candidate [`compiled::first_by_kind`] takes with
/// the compiler's estimates of each kind of code among `variants`
/// (`--compiled`), unless the untiled gate put the original first; a
/// `demoted` original ([`UntiledTraits::never_first`]) is never taken. Also
/// each kind's estimate, for the report.
fn compiled_first(
    d: usize,
    variants: &[Variant],
    scores: &[f64],
    kept: Vec<usize>,
    demoted: bool,
    estimate: impl FnOnce(&[Variant]) -> Result<HashMap<Variant, f64>, Error>,
) -> Result<(Vec<usize>, Estimated), Error> {
    let gated =
        kept.first() != ranked(scores).first() && kept.first().is_some_and(|&k| variants[k] == Variant::Untiled);
    if gated {
        return Ok((kept, Vec::new()));
    }
    let allowed = |k: usize| !(demoted && variants[k] == Variant::Untiled);
    let kinds: Vec<Variant> = variants.iter().map(|v| compiled::kind(v, d)).collect();
    let usable: Vec<Variant> = (0..kinds.len()).filter(|&k| allowed(k)).map(|k| kinds[k].clone()).collect();
    let rate = estimate(&usable)?;
    let mut estimates: Vec<(String, f64)> = rate.iter().map(|(k, r)| (compiled::kind_label(k), *r)).collect();
    estimates.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let Some(first) = compiled::first_allowed(scores, &kinds, &rate, allowed) else { return Ok((kept, estimates)) };
    Ok((std::iter::once(first).chain(kept.into_iter().filter(|&k| k != first)).collect(), estimates))
}

/// The compiler's lanes per cycle of each kind of code among `variants`
/// ([`compiled::rates`]), or the one-line error naming what is missing.
fn estimate_kinds(
    a: &Analysis,
    sizes: &Sizes,
    opts: &ChooseOptions,
    variants: &[Variant],
) -> Result<HashMap<Variant, f64>, Error> {
    let mca = compiled::Mca::find().ok_or_else(|| Error::Usage(compiled::NO_MCA.into()))?;
    let compiler = Compiler::from_env().map_err(Error::Usage)?;
    let session = Session::new(a, Mode::from_parallel(opts.parallel), compiler, opts.policy).map_err(Error::Usage)?;
    Ok(compiled::rates(&session, sizes, variants, &mca))
}

/// The untiled original must beat the chosen tile by this factor before
/// tss says so: it is timed once, the candidates several times.
const UNTILED_MARGIN: f64 = 0.95;

/// Times configs of one kernel at one size, each checked against the
/// untiled code, which runs once (the first batch).
struct Timer<'a> {
    session: Session<'a>,
    sizes: &'a Sizes,
    /// The untiled code's checksum and median seconds, once run.
    reference: Option<f64>,
    untiled: Option<f64>,
}

impl<'a> Timer<'a> {
    fn new(a: &'a crate::Analysis, sizes: &'a Sizes, opts: &ChooseOptions) -> Result<Self, String> {
        let session = Session::new(a, Mode::from_parallel(opts.parallel), Compiler::from_env()?, opts.policy)?;
        Ok(Timer { session, sizes, reference: None, untiled: None })
    }

    /// Median seconds of each config (`None`: it failed or printed other results).
    fn time(&mut self, configs: &[Config]) -> Result<Vec<Option<f64>>, String> {
        let variants: Vec<Variant> = configs.iter().map(|c| Variant::Tiled(c.clone())).collect();
        let mut out = vec![None; configs.len()];
        let (mut reference, mut untiled) = (self.reference, self.untiled);
        self.session.measure(self.sizes, &variants, self.reference, 1, |v, t| match (v, t.status) {
            (Variant::Untiled, Status::Ok) => (reference, untiled) = (t.checksum, t.median()),
            (Variant::Tiled(c), Status::Ok) => {
                if let Some(k) = configs.iter().position(|x| x == c) {
                    out[k] = t.median();
                }
            }
            _ => {}
        })?;
        (self.reference, self.untiled) = (reference, untiled);
        Ok(out)
    }
}

/// T6-Search: time the kept candidates (checked against untiled), take the
/// fastest.
fn search(timer: &mut Timer, kept: &mut [Kept]) -> Result<usize, String> {
    let tiled: Vec<usize> = (0..kept.len()).filter(|&k| !kept[k].untiled).collect();
    let configs: Vec<Config> = tiled.iter().map(|&k| kept[k].config()).collect();
    for (&k, m) in tiled.iter().zip(timer.time(&configs)?) {
        kept[k].measured = m;
    }
    // The untiled original ran as the reference of the first batch.
    for k in kept.iter_mut().filter(|k| k.untiled) {
        k.measured = timer.untiled;
    }
    (0..kept.len())
        .filter(|&k| kept[k].measured.is_some())
        .min_by(|&x, &y| kept[x].measured.unwrap_or(f64::MAX).total_cmp(&kept[y].measured.unwrap_or(f64::MAX)))
        .ok_or_else(|| "no kept candidate ran correctly".to_string())
}

/// The register-tile and shape search from T6-Search's pick (nothing when
/// disabled or when the hot SCoP has no tiled band of two or more loops),
/// and why it stopped early if the harness failed.
fn refine_pick(
    a: &crate::Analysis,
    timer: &mut Timer,
    pick: &Kept,
    ps: &[i64; 3],
    opts: &ChooseOptions,
) -> (Vec<Tried>, Option<String>) {
    let longest = ps.iter().copied().max().unwrap_or(1).max(8) as usize;
    let regs = Descriptor::detect("", "").vector_registers();
    let (Some(mut space), Some(start)) = (Space::of(a, regs, longest.next_power_of_two()), pick.measured) else {
        return (Vec::new(), None);
    };
    space.can_vector = opts.refine > 0 && a.can_vector(&pick.config());
    if opts.refine == 0 || space.orders.plain.len() < 2 {
        return (Vec::new(), None);
    }
    let mut failure = None;
    let tried = refine::search(pick.config(), start, opts.refine, &space, |cs| {
        timer.time(cs).unwrap_or_else(|e| {
            failure = Some(format!("timing register tiles and shapes failed ({e}); kept the fastest timed"));
            vec![None; cs.len()]
        })
    });
    (tried, failure)
}

/// Warnings when the model was trained elsewhere or with other flags.
fn provenance_warnings(model: &SavedModel, opts: &ChooseOptions) -> Vec<String> {
    let mut w = Vec::new();
    let d = &model.meta.data;
    let compiler = Compiler::from_env().ok();
    let advice = "prefer --mode t6-search, or run tss collect + tss train here";
    let recorded = compiler.as_ref().and_then(|c| d.differences_from(&Descriptor::detect(&c.version, &c.flags())));
    if let Some(diffs) = recorded {
        if !diffs.is_empty() {
            w.push(format!("the model was trained on {}: {advice}", d.other_machines(&diffs)));
        }
    } else {
        let here = MachineInfo::detect();
        let caches = (d.l1d, d.l2) != (here.caches.l1d, here.caches.l2) && d.l2 != 0;
        if !d.cpu.is_empty() && (d.cpu != here.cpu || caches) {
            w.push(format!(
                "the model was trained on '{}' (L2 {}), this machine is '{}' (L2 {}): {advice}",
                d.cpu,
                human(d.l2),
                here.cpu,
                human(here.caches.l2)
            ));
        }
        if let Some(c) = &compiler
            && !d.cflags.is_empty()
            && d.cflags != c.flags()
        {
            w.push(format!("the model was trained with CFLAGS '{}', now '{}': {advice}", d.cflags, c.flags()));
        }
    }
    let mode = if opts.parallel { "parallel" } else { "serial" };
    if !d.mode.is_empty() && !d.mode.split('+').any(|m| m == mode) {
        w.push(format!("the model was trained on {} timings but is used for {mode} code", d.mode));
    }
    w
}

/// Revision of how a choice is made from the predictions, part of the cache
/// key: bump it when that changes, so that no cached choice of an older
/// tss answers for this one (2: a config the training rows lacked no
/// longer sends the whole choice to the cache rule).
const CHOICE_REVISION: u32 = 2;

fn cache_key(src: &str, sizes: &Sizes, opts: &ChooseOptions) -> Option<String> {
    opts.cache.as_ref()?;
    let model = opts.model.fingerprint()?;
    let info = MachineInfo::detect();
    let sizes = sizes.to_string();
    // Absent at the default, so choices cached before `--search` stay valid.
    let search = opts.search.map_or_else(String::new, |n| format!("/search{n}"));
    let search = if opts.compiled { format!("{search}/compiled") } else { search };
    let setup = format!(
        "{}/{CHOICE_REVISION}{:?}{}{}{}{:?}{:?}{search}",
        env!("CARGO_PKG_VERSION"),
        opts.caches,
        opts.strategy,
        opts.refine,
        opts.parallel,
        std::env::var("CC").ok(),
        std::env::var("CFLAGS").ok()
    );
    let parts = [src.as_bytes(), sizes.as_bytes(), &model, info.cpu.as_bytes(), setup.as_bytes()];
    let h = fnv1a(parts.iter().flat_map(|p| p.iter().copied().chain([0])));
    Some(format!("{h:016x}"))
}

fn read_cache(opts: &ChooseOptions, key: &str) -> Option<Choice> {
    let text = std::fs::read_to_string(opts.cache.as_ref()?.join(format!("{key}.json"))).ok()?;
    serde_json::from_str(&text).ok()
}

fn write_cache(opts: &ChooseOptions, key: &str, c: &Choice) {
    if let Some(dir) = &opts.cache
        && std::fs::create_dir_all(dir).is_ok()
    {
        let tmp = dir.join(format!("{key}.{}.tmp", std::process::id()));
        if std::fs::write(&tmp, serde_json::to_string_pretty(c).unwrap_or_default()).is_ok() {
            let _ = std::fs::rename(&tmp, dir.join(format!("{key}.json")));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::FeatureSet;

    #[test]
    fn t6_search_always_times_the_original_once() {
        assert_eq!(with_original(vec![4, 2], Some(7)), vec![4, 2, 7]);
        assert_eq!(with_original(vec![7, 2], Some(7)), vec![7, 2]);
        assert_eq!(with_original(vec![2, 7], Some(7)), vec![2, 7]);
        // Models that do not rank the original leave the kept list alone.
        assert_eq!(with_original(vec![4, 2], None), vec![4, 2]);
    }

    #[test]
    fn an_original_never_first_ranked_first_goes_last_and_says_why() {
        let mut warnings = Vec::new();
        let why = "walks memory at a stride";
        assert_eq!(original_last(&[0.5, 0.1, 0.3], 2, why, &mut warnings), vec![0.5, 0.1, f64::INFINITY]);
        assert!(warnings.is_empty(), "ranked second, it moves without a word");
        assert_eq!(ranked(&original_last(&[0.5, 0.1, 0.0], 2, why, &mut warnings)), vec![1, 0, 2]);
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("walks memory at a stride"), "{}", warnings[0]);
    }

    #[test]
    fn on_a_new_structure_the_network_does_not_put_the_original_first() {
        let mut warnings = Vec::new();
        let network = vec![0.5, 0.1, 0.0];
        let known = OriginalPlace::of(false, false, false);
        assert_eq!(rank_original(network.clone(), 2, None, known, &mut warnings), network, "a structure it knows");
        assert!(warnings.is_empty());
        let new = OriginalPlace::of(false, true, false);
        assert_eq!(ranked(&rank_original(network.clone(), 2, None, new, &mut warnings)), vec![1, 0, 2]);
        assert!(warnings.len() == 1 && warnings[0].contains("new to the model"), "{warnings:?}");
        let never = Some("walks memory at a stride");
        let strided = rank_original(network, 2, never, OriginalPlace::of(true, true, false), &mut warnings);
        assert_eq!(ranked(&strided), vec![1, 0, 2]);
        assert!(warnings[1].contains("their innermost loop walks memory at a stride"), "{warnings:?}");
    }

    #[test]
    fn corpus_models_rank_the_config_space_the_anchors_and_the_original() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/blas/gemm-ikj.c");
        let a = crate::analyze(&path, &std::fs::read_to_string(&path).unwrap(), false).unwrap();
        let sizes = Sizes::parse(&a.scop.params, "NI=300,NJ=200,NK=250").unwrap();
        let caches = Caches { l1d: 32 << 10, l2: 512 << 10, line: 64 };
        let tiles = a.kernel.candidates(&a.extents(&sizes).unwrap(), &caches);
        let d = a.tile_dims();
        let shape = a.shape(&sizes, 256, 1).unwrap();
        let inst = (&sizes, &shape);
        let paper = candidate_configs(&a, &tiles, FeatureSet::Extended, inst, &caches, 16).unwrap();
        assert_eq!(paper.len(), tiles.len(), "the paper's sets rank the cubic candidates only");
        let corpus = candidate_configs(&a, &tiles, FeatureSet::Scop, inst, &caches, 16).unwrap();
        assert!(corpus.starts_with(
            &candidate_configs(&a, &tiles, FeatureSet::Registers, inst, &caches, 16).unwrap()[..tiles.len()]
        ));
        let space = crate::space::enumerate(&a, &sizes, &caches, 16).unwrap();
        let anchors = crate::space::anchors(&a, &space.extents, &caches, 16);
        let written: Vec<Config> = corpus.iter().map(|c| c.written_out(d)).collect();
        for c in space.configs.iter().chain(anchors.iter().filter(|c| c.vector == 0)) {
            assert!(written.contains(&c.written_out(d)), "{c} is missing");
        }
        let distinct: std::collections::HashSet<&Config> = written.iter().collect();
        assert_eq!(distinct.len(), written.len(), "each config once");
        assert!(corpus.iter().all(|c| c.vector == 0), "a set blind to vector tiles does not rank them");
        let vectors = candidate_configs(&a, &tiles, FeatureSet::Vector, inst, &caches, 16).unwrap();
        let vectored = space.vectored(&a, 16);
        assert!(!vectored.is_empty() && anchors.iter().any(|c| c.vector > 0), "matmul's k runs around its j");
        let vectors: Vec<Config> = vectors.iter().map(|c| c.written_out(d)).collect();
        for c in vectored.iter().chain(&anchors) {
            assert!(vectors.contains(&c.written_out(d)), "{c} is missing from the vector set's candidates");
        }
        // The original, as a kept candidate and as a report names it.
        let k = Kept::of(&Variant::Untiled, d, 1.0);
        assert!(k.untiled && k.tile.is_empty() && k.label() == "untiled");
        let k = Kept::of(&Variant::Tiled("16x32x64:2x1x1".parse().unwrap()), d, 1.0);
        assert!(!k.untiled && k.label() == "16x32x64:2x1x1", "{}", k.label());
    }
}
