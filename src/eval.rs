//! The paper's evaluation (section 4.3) on measured test instances.
//!
//! For each instance every candidate was timed, so each method's choice has
//! a measured time: T1 takes the lowest prediction, T6-Random the expected
//! time over the kept 10 % (the mean), T6-Search the fastest kept one, and
//! "tile 32" is Pluto's default. Against the exhaustive best T_O and the
//! untiled baseline T_B: normalised time TN = T_M / T_O, speedup
//! S = T_B / T_M, maximum available performance MAP = (T_B - T_M) / (T_B - T_O),
//! and performance improvement over tile 32, PI = (S - S_32) / S_32.
//!
//! Baselines beside the model, on the same rows: Pluto's tile 32, the
//! analytical cache rule (the largest candidate whose tile working set fits
//! L2), the best constant tile chosen on the training rows (and, for models
//! that rank vector tiles, the best tile taken as its vector anchor wherever
//! the instance has one), and random
//! search against model-guided search at equal numbers of measurements
//! ([`search_curve`]).

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::Serialize;

use crate::compiled::{Estimates, first_allowed};
use crate::config::Config;
use crate::dataset::{Record, STORED};
use crate::error::Error;
use crate::features::FeatureSet;
use crate::gate::{InstanceKey, UntiledTraits, strided_original};
use crate::harness::Variant;
use crate::harness::{Status, UNTILED};
use crate::model::ranker::sum_of_z_scores;
use crate::model::saved::SavedModel;
use crate::refeature::Sources;
use crate::select::{OriginalPlace, keep_best, neighbours, ranked, search_count, search_order};
use crate::stats::geo_mean;

/// Every method a report may score; "T1 network" (the network's own first
/// pick, before the untiled gate and the stride rule) only for a model with
/// a gate or one that ranks the original ([`evaluate`]).
pub const METHODS: [&str; 11] = [
    "T1",
    "T1 network",
    "T1 compiled",
    "T6-Random",
    "T6-Search",
    "tile 32",
    "cache rule",
    "traffic rule",
    "constant",
    "constant+vector",
    "best",
];

/// The constant baselines, chosen on training rows ([`best_constant`]).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Constants {
    /// The one config with the lowest geometric-mean TN.
    pub plain: Option<String>,
    /// A cubic tile taken as its vector anchor wherever the instance has one
    /// (a fixed register tile where codegen makes one) and plain elsewhere:
    /// the fixed rule a `vector` model must beat. `None` unless the set
    /// describes vector tiles.
    pub vector: Option<String>,
}

/// One method on one instance.
#[derive(Clone, Debug, Serialize)]
pub struct Score {
    pub time: f64,
    pub tn: f64,
    pub speedup: Option<f64>,
    pub map: Option<f64>,
    /// The config the method picked (none for T6-Random's mean), so that
    /// the picks can be timed again side by side (`scripts/remeasure.py`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub config: Option<String>,
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
    /// Indices into `candidates` in the order a measuring search times them
    /// ([`search_order`]: one of each kind of code first).
    pub search_order: Vec<usize>,
    /// The model's inputs lie far outside its training range here
    /// ([`SavedModel::distrust`]): T1 and the searches follow the cache rule,
    /// as `tss predict` does.
    pub ruled: bool,
    /// The original walks memory at a stride along its innermost loop
    /// ([`strided_original`]): no method takes it first.
    pub strided: bool,
    /// The original's innermost loop carries a recurrence
    /// ([`UntiledTraits::recurrent`]; known where the kernels' sources
    /// were given): no method takes it first either, unless it is
    /// `threaded`.
    #[serde(default)]
    pub recurrent: bool,
    /// The original runs its outermost loop on several threads
    /// ([`UntiledTraits::threaded`]), which keeps a recurrent one in the
    /// running for the first pick.
    #[serde(default)]
    pub threaded: bool,
    /// Where the blended ranker ranked the instance, the two scores it
    /// summed, per candidate: so that other blends of them (or of several
    /// models' reports) can be replayed without training again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parts: Option<BlendParts>,
    /// With `--compiled`, the compiler's estimates the "T1 compiled" pick
    /// used, so that other floors can be replayed (`scripts/compiled_cost.py`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compiled: Option<Estimates>,
    /// The timed configs left out of the model's choice
    /// ([`oversized_copies`]) and their times, as `candidates` lists the rest.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<(String, f64)>,
}

/// A blended instance's scores before blending, in `candidates`' order.
#[derive(Clone, Debug, Serialize)]
pub struct BlendParts {
    /// The network's predictions.
    pub network: Vec<f64>,
    /// The ranker's linear estimates.
    pub ranker: Vec<f64>,
}

/// Mean of each metric per method.
#[derive(Clone, Debug, Serialize, Default)]
pub struct Summary {
    pub instances: usize,
    /// Instances where MAP is defined: tiling beats the untiled code (T_B > T_O).
    pub map_instances: usize,
    /// Arithmetic mean of TN, the paper's.
    pub tn: f64,
    /// Geometric mean of TN, what the README and the issues' targets quote:
    /// it averages log ratios, so one pick 6x too slow does not outweigh
    /// many picks near the best as it does in the arithmetic mean.
    pub tn_geo: f64,
    pub speedup: Option<f64>,
    pub map: Option<f64>,
    /// PI over tile 32, in percent, from the mean speedups.
    pub pi: Option<f64>,
}

/// Rows of one mode grouped by instance (kernel, sizes, platform: see
/// [`Record::instance_key`]).
fn instances(records: &[Record]) -> BTreeMap<(String, String, String), Vec<&Record>> {
    let mut groups: BTreeMap<(String, String, String), Vec<&Record>> = BTreeMap::new();
    for r in records {
        groups.entry((r.kernel.clone(), r.sizes.clone(), r.instance_key())).or_default().push(r);
    }
    groups
}

/// The candidates of one instance that a model of `set` ranks
/// ([`Record::is_candidate`]). Model and baselines choose in this one
/// space, so their TN share a reference.
fn timed<'a>(rows: &[&'a Record], set: FeatureSet) -> Vec<&'a Record> {
    rows.iter().copied().filter(|r| r.is_candidate(set)).collect()
}

/// The constant baselines of the training rows: among the configs timed
/// on at least 90 % of the instances, the one with the lowest geometric-mean
/// TN, and the same for the rule "this tile, as its vector anchor where the
/// instance has one". These are what a model must beat to be worth having.
pub fn best_constant(train: &[Record], set: FeatureSet) -> Constants {
    let groups: Vec<Vec<&Record>> = instances(train).values().map(|rows| timed(rows, set)).collect();
    let mut log_tn: BTreeMap<&str, (f64, f64, usize)> = BTreeMap::new();
    for cands in &groups {
        let best = cands.iter().filter_map(|r| r.time_median).fold(f64::INFINITY, f64::min);
        let tn = |k: usize| (median(cands[k]) / best).ln();
        for (k, r) in cands.iter().enumerate() {
            let e = log_tn.entry(r.tile.as_str()).or_default();
            e.0 += tn(k);
            e.1 += tn(vector_anchor(cands, &r.tile).unwrap_or(k));
            e.2 += 1;
        }
    }
    let need = ((groups.len() as f64 * 0.9).ceil() as usize).max(1);
    let covered: Vec<_> = log_tn.into_iter().filter(|(_, e)| e.2 >= need).collect();
    let argmin = |f: fn(&(f64, f64, usize)) -> f64| {
        covered.iter().min_by(|a, b| f(&a.1).total_cmp(&f(&b.1))).map(|(t, _)| t.to_string())
    };
    Constants {
        plain: argmin(|e| e.0 / e.2 as f64),
        vector: argmin(|e| e.1 / e.2 as f64).filter(|_| set.describes_vectors()),
    }
}

/// The vector anchor of plain tile `tile` among an instance's `cands`: a
/// register-tiled row whose plain part is `tile` (or `tile` in every
/// dimension, for a cubic tile written as one size). Collection times the same
/// vector tile at every cubic anchor, so where several rows qualify (a
/// sampled vector config may share the plain part) the one whose suffix
/// recurs on the most other tiles is the anchor.
fn vector_anchor(cands: &[&Record], tile: &str) -> Option<usize> {
    let split = |t: &str| t.find([':', '/']).map(|i| (t[..i].to_string(), t[i..].to_string()));
    let vectored = |t: &str| t.contains(crate::config::VECTOR);
    if tile.contains([':', '/']) {
        return None;
    }
    // A cubic tile is written `64`, its vector anchor `64x64x64:4x1x1/v3`.
    let same = |plain: &str, tile: &str| plain == tile || plain.split('x').all(|d| d == tile);
    let recurs = |suffix: &str| cands.iter().filter(|r| r.tile.ends_with(suffix) && vectored(&r.tile)).count();
    (0..cands.len())
        .filter(|&k| vectored(&cands[k].tile))
        .filter_map(|k| split(&cands[k].tile).filter(|(p, _)| same(p, tile)).map(|(_, suffix)| (k, recurs(&suffix))))
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
        .map(|(k, _)| k)
}

/// The analytical cache rule's pick among `cands`: the largest cubic tile
/// (each feature loop at one size, or whole when shorter, as
/// [`crate::space::cache_rule`] clamps it) without a register tile, in the
/// default loop order ([`crate::Config::sink`]), whose working set fits L2 (feature `WS_L2` <= 1), else the smallest tile.
fn cache_rule_pick(cands: &[&Record]) -> Option<usize> {
    let ws_l2 = FeatureSet::Extended.names().iter().position(|n| *n == "WS_L2")?;
    let volume = |r: &Record| r.ts.iter().product::<f64>();
    let fits = |r: &Record| r.features.get(ws_l2).is_some_and(|&w| w <= 1.0);
    let tiled = |k: &usize| cands[*k].tile != UNTILED;
    (0..cands.len())
        .filter(tiled)
        .filter(|&k| fits(cands[k]) && cubic_size(cands[k]).is_some())
        .max_by(|&a, &b| volume(cands[a]).total_cmp(&volume(cands[b])))
        .or_else(|| (0..cands.len()).filter(tiled).min_by(|&a, &b| volume(cands[a]).total_cmp(&volume(cands[b]))))
}

/// The size of `r`'s tile where it is a plain cubic one (each feature loop
/// at one size, or whole when shorter; no register tile, default loop
/// order): what the cache rule chooses among.
fn cubic_size(r: &Record) -> Option<f64> {
    let t = r.ts.iter().copied().fold(0.0, f64::max);
    let cubic = r.tile != UNTILED
        && !r.tile.contains(':')
        && !r.tile.contains('/')
        && r.ts.iter().zip(&r.ps).all(|(&ts, &ps)| ts == t || ts == ps as f64 || ts == 1.0);
    cubic.then_some(t)
}

/// The order in which `tss predict` times `cands` where it does not trust
/// the model ([`SavedModel::distrust`]): the cache rule's pick `rule`, the
/// untiled `original`, then the other cubic tiles nearest `rule` on a log
/// scale ([`neighbours`]), then the rest as ranked by
/// `pred`.
fn ruled_order(cands: &[&Record], rule: usize, original: Option<usize>, pred: &[f64]) -> Vec<usize> {
    let cubic: Vec<(usize, usize)> =
        (0..cands.len()).filter(|&k| k != rule).filter_map(|k| Some((k, cubic_size(cands[k])? as usize))).collect();
    let sizes: Vec<usize> = cubic.iter().map(|&(_, t)| t).collect();
    let centre = cubic_size(cands[rule]).map_or(1, |t| t as usize);
    let mut order = vec![rule];
    order.extend(original);
    order.extend(neighbours(&sizes, centre, sizes.len()).into_iter().map(|i| cubic[i].0));
    let rest: Vec<usize> = ranked(pred).into_iter().filter(|k| !order.contains(k)).collect();
    order.extend(rest);
    order
}

/// The analytical traffic rule's pick among `cands`: the config with the
/// least estimated L2 traffic, then the least L1 traffic
/// ([`crate::features::traffic`]); on a tie the untiled code, then the
/// plain tile in the default loop order (the estimate sees neither register
/// tiles nor where a sunk loop runs). `None` when the
/// rows do not store the `traffic` features.
fn traffic_rule_pick(cands: &[&Record]) -> Option<usize> {
    let names = FeatureSet::Traffic.names();
    let col = |n: &str| names.iter().position(|x| *x == n);
    let (l1, l2) = (col("LOG_TRAFFIC_L1")?, col("LOG_TRAFFIC_L2")?);
    let key = |r: &Record| {
        let f = |k: usize| r.features.get(k).copied().unwrap_or(f64::INFINITY);
        // Estimates equal to 0.1 % are a tie.
        let round = |x: f64| (x * 1000.0).round();
        (round(f(l2)), round(f(l1)), r.tile != UNTILED, r.tile.contains(':'), r.tile.contains('/'))
    };
    (0..cands.len())
        .filter(|&k| cands[k].features.len() >= names.len())
        .min_by(|&a, &b| key(cands[a]).partial_cmp(&key(cands[b])).unwrap_or(std::cmp::Ordering::Equal))
}

/// Per instance of `records`, the timed configs `tss predict` would not
/// rank: packing configs whose copies outgrow the rows' L2
/// ([`crate::space::copies_fit`]), from the kernels' sources (`sources`);
/// rows of other kernels have none.
pub fn oversized_copies(
    records: &[Record],
    sources: &mut Sources,
) -> Result<HashMap<InstanceKey, HashSet<String>>, Error> {
    let mut out: HashMap<InstanceKey, HashSet<String>> = HashMap::new();
    for r in records.iter().filter(|r| r.tile != UNTILED) {
        // Only the member extents of the shape matter here.
        let Some((a, shape)) = sources.shaped_for_rules(&r.kernel, &r.mode, &r.sizes)? else { continue };
        let Ok(c) = r.tile.parse::<Config>() else { continue };
        if !crate::space::copies_fit(a, shape, &c, r.meta.l2) {
            out.entry((r.kernel.clone(), r.mode.clone(), r.sizes.clone())).or_default().insert(r.tile.clone());
        }
    }
    Ok(out)
}

/// What the kernels' sources (and the compiler) say about each instance of
/// the rows under evaluation, beyond the rows themselves; empty maps where
/// they are unknown (no `--kernels`), and the rules they drive stay off.
#[derive(Clone, Debug, Default)]
pub struct SourceFacts {
    /// The original's traits ([`crate::gate::traits_of`]).
    pub traits: HashMap<InstanceKey, UntiledTraits>,
    /// The packing configs whose copies outgrow L2 ([`oversized_copies`]).
    pub oversized: HashMap<InstanceKey, HashSet<String>>,
    /// The compiler's estimates of each kind of code (`--compiled`).
    pub compiled: HashMap<InstanceKey, Estimates>,
}

/// Evaluates `model` on every instance of `records` (rows of one mode);
/// `constants` are the constant baselines of the training rows, if known.
/// Where the model has an untiled gate and it knows the instance (rules:
/// `facts.traits`; a linear gate: the untiled row's features), T1 takes the
/// untiled original when the gate fires, the searches time it
/// first, and "T1 network" scores the network's own first pick beside it.
/// Where the original walks memory at a stride along its innermost loop
/// ([`strided_original`]) or that loop carries a recurrence (`traits`,
/// [`UntiledTraits::never_first`]), neither the network nor the gate puts it
/// first. The configs `facts.oversized` lists per instance are left out of
/// the model's choice, as `tss predict` leaves them out; the baselines and
/// the fastest config still see them.
pub fn evaluate(
    model: &SavedModel,
    records: &[Record],
    constants: &Constants,
    facts: &SourceFacts,
) -> Vec<InstanceEval> {
    let SourceFacts { traits, oversized, compiled } = facts;
    let set = model.feature_set();
    let mut out = Vec::new();
    for ((kernel, sizes, _), rows) in instances(records) {
        let key = (kernel.clone(), rows[0].mode.clone(), sizes.clone());
        // The baselines are fixed rules: they take any timed config. The
        // model's methods take what `tss predict` ranks.
        let all = timed(&rows, set);
        let left_out = oversized.get(&key);
        let cands: Vec<&Record> =
            all.iter().copied().filter(|r| left_out.is_none_or(|s| !s.contains(&r.tile))).collect();
        // An instance with one candidate offers no choice: every method
        // would score 1 on it (e.g. only the original left while its tiled
        // rows await measuring again).
        if cands.len() < 2 {
            continue;
        }
        let times: Vec<f64> = cands.iter().map(|r| median(r)).collect();
        let feats: Vec<Vec<f64>> = cands.iter().map(|r| r.features_of(set).to_vec()).collect();
        let untiled_row = rows.iter().find(|r| r.tile == UNTILED && r.status == Status::Ok);
        let (pred, parts) = blended(model, model.predict(&feats), &cands, untiled_row.copied());
        let best = all.iter().map(|r| median(r)).fold(f64::INFINITY, f64::min);
        let baseline = untiled_row.and_then(|r| r.time_median);
        let network_first = keep_best(&pred)[0];
        let original = cands.iter().position(|r| r.tile == UNTILED);
        let strided = untiled_row.is_some_and(|r| strided_original(r.features_of(STORED)));
        let features = model.meta.gate.as_ref().and_then(|g| Some(untiled_row?.features_of(g.linear.as_ref()?.set)));
        let known = traits.get(&key);
        let gated = model.meta.gate.as_ref().is_some_and(|g| g.fires(known, features));
        let recurrent = known.is_some_and(UntiledTraits::recurrent);
        let threaded = known.is_some_and(|t| t.threaded);
        let demoted = strided || known.is_some_and(|t| t.never_first().is_some());
        let classes = search_classes(cands.iter().map(|r| r.tile.as_str()));
        // The ranker blended: the loop structure is new to the model.
        let place = OriginalPlace::of(demoted, parts.is_some(), gated);
        let Picks { kept, t1, order } = picks(&pred, |k| classes[k], original, place);
        // Where `tss predict` drops the ranking for the cache rule, so do the
        // methods here: T6-Random draws from the rule's neighbours.
        let ruled = model.distrust(&feats, &pred).and(cache_rule_pick(&cands));
        let (t1, order, kept) = match ruled {
            Some(rule) => {
                let order = ruled_order(&cands, rule, original, &pred);
                let near = order.iter().copied().filter(|&k| Some(k) != original).take(kept.len()).collect();
                (rule, order, near)
            }
            None => (t1, order, kept),
        };
        let searched = &order[..search_count(order.len())];
        let score = |k: usize| Score { config: Some(cands[k].tile.clone()), ..score_of(times[k], best, baseline) };
        let fastest = |ks: &mut dyn Iterator<Item = usize>| ks.min_by(|&a, &b| times[a].total_cmp(&times[b]));
        let mut scores = rule_scores(&all, constants, best, baseline);
        scores.insert("T1".to_string(), score(t1));
        if model.meta.gate.is_some() || original.is_some() {
            scores.insert("T1 network".to_string(), score(network_first));
        }
        if let Some(e) = compiled.get(&key) {
            scores.insert(
                "T1 compiled".to_string(),
                score(compiled_pick(e, &cands, &pred, t1, (ruled.is_some(), gated), demoted)),
            );
        }
        let mean_kept = kept.iter().map(|&k| times[k]).sum::<f64>() / kept.len() as f64;
        scores.insert("T6-Random".to_string(), score_of(mean_kept, best, baseline));
        if let Some(k) = fastest(&mut searched.iter().copied()) {
            scores.insert("T6-Search".to_string(), score(k));
        }
        out.push(InstanceEval {
            kernel,
            sizes,
            best,
            baseline,
            scores,
            candidates: cands.iter().zip(&times).zip(&pred).map(|((r, &t), &p)| (r.tile.clone(), t, p)).collect(),
            t1_tile: cands[t1].tile.clone(),
            search_order: order,
            ruled: ruled.is_some(),
            strided,
            recurrent,
            threaded,
            parts,
            compiled: compiled.get(&key).cloned(),
            left_out: all
                .iter()
                .filter(|r| left_out.is_some_and(|s| s.contains(&r.tile)))
                .map(|r| (r.tile.clone(), median(r)))
                .collect(),
        });
    }
    out
}

/// A row's median time; NaN where it has none, which no comparison picks.
fn median(r: &Record) -> f64 {
    r.time_median.unwrap_or(f64::NAN)
}

/// The fixed rules' scores on an instance's timed configs `all`, the
/// model's candidates or not (a rule takes any config): tile 32, the cache
/// and traffic rules, the training rows' constants, and the best.
fn rule_scores(all: &[&Record], constants: &Constants, best: f64, baseline: Option<f64>) -> BTreeMap<String, Score> {
    let position = |c: &String| all.iter().position(|r| r.tile == *c);
    let picks = [
        ("tile 32", all.iter().position(|r| r.tile.split('x').all(|t| t == "32"))),
        ("cache rule", cache_rule_pick(all)),
        ("traffic rule", traffic_rule_pick(all)),
        ("constant", constants.plain.as_ref().and_then(position)),
        (
            "constant+vector",
            constants.vector.as_ref().and_then(|c| Some(vector_anchor(all, c).unwrap_or(position(c)?))),
        ),
        ("best", (0..all.len()).min_by(|&a, &b| median(all[a]).total_cmp(&median(all[b])))),
    ];
    let score = |k: usize| Score { config: Some(all[k].tile.clone()), ..score_of(median(all[k]), best, baseline) };
    picks.into_iter().filter_map(|(name, k)| Some((name.to_string(), score(k?)))).collect()
}

/// T1 among the kinds of code the compiler's estimates `e` do not veto
/// ([`first_allowed`]), as `tss predict --compiled` takes it: where T1
/// follows the cache rule (`ruled`) or the gate put the original first, T1
/// stays; a `demoted` original (strided or recurrent) is never taken.
fn compiled_pick(
    e: &Estimates,
    cands: &[&Record],
    pred: &[f64],
    t1: usize,
    kept_by: (bool, bool),
    demoted: bool,
) -> usize {
    let (ruled, gated) = kept_by;
    if ruled || gated && cands[t1].tile == UNTILED {
        return t1;
    }
    let kinds: Vec<&str> =
        cands.iter().map(|c| e.kind_of.get(&c.tile).map_or(c.tile.as_str(), String::as_str)).collect();
    let rate: HashMap<&str, f64> = e.rate.iter().map(|(k, r)| (k.as_str(), *r)).collect();
    first_allowed(pred, &kinds, &rate, |k| !(demoted && cands[k].tile == UNTILED)).unwrap_or(t1)
}

/// What the model's methods take on one instance.
struct Picks {
    /// The [`keep_best`] share, best first (T6-Random's).
    kept: Vec<usize>,
    /// T1's pick.
    t1: usize,
    /// The order in which the searches time candidates.
    order: Vec<usize>,
}

/// The picks of a ranking `pred` of candidates of kinds `class`, where
/// `original` is the untiled candidate and `place` says where the rules put
/// it ([`OriginalPlace`]); either way the searches time it by the second
/// measurement.
fn picks<K: Eq + std::hash::Hash>(
    pred: &[f64],
    class: impl Fn(usize) -> K,
    original: Option<usize>,
    place: OriginalPlace,
) -> Picks {
    let rank = place.rank(pred, original);
    let kept = keep_best(&rank);
    let order = place.front(search_order(&rank, class, original), original);
    let t1 = if place.first { original } else { None };
    Picks { t1: t1.unwrap_or(kept[0]), kept, order }
}

/// A method's score from the time of its pick, against the instance's
/// fastest time and the untiled code's.
fn score_of(t: f64, best: f64, baseline: Option<f64>) -> Score {
    Score {
        time: t,
        tn: t / best,
        speedup: baseline.map(|b| b / t),
        map: baseline.filter(|&b| b > best).map(|b| 100.0 * (b - t) / (b - best)),
        config: None,
    }
}

/// The scores the model ranks `cands` by: the network's `pred`, or where
/// the model's blended ranker applies to the instance (its structure is
/// new), the blend ([`crate::model::ranker`]). Stored as the candidates'
/// predictions, so every search method follows the same order; with the
/// blend, also the scores it summed.
fn blended(
    model: &SavedModel,
    pred: Vec<f64>,
    cands: &[&Record],
    untiled: Option<&Record>,
) -> (Vec<f64>, Option<BlendParts>) {
    let Some(r) = model.meta.ranker.as_ref().filter(|r| r.applies(untiled.map(|u| u.features_of(STORED)))) else {
        return (pred, None);
    };
    let stored: Vec<Vec<f64>> = cands.iter().map(|c| c.features_of(STORED).to_vec()).collect();
    let Some((b, ranker)) = r.estimates(&stored).and_then(|e| Some((sum_of_z_scores(&pred, &e)?, e))) else {
        return (pred, None);
    };
    (b, Some(BlendParts { network: pred, ranker }))
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
                tn_geo: geo_mean(scores.iter().map(|s| s.tn)),
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

/// Mean TN after `k` measurements by three searches: arithmetic means, and
/// geometric ones (`_geo`, as the README quotes them).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct CurvePoint {
    pub k: usize,
    /// The k best predictions timed, the fastest kept.
    pub guided: f64,
    /// The first k of [`search_order`] timed (one of each kind of code first).
    pub diverse: f64,
    /// k candidates drawn without replacement; the exact expectation of the
    /// fastest, not a sample.
    pub random: f64,
    pub guided_geo: f64,
    pub diverse_geo: f64,
    pub random_geo: f64,
}

/// [`CurvePoint`]s for k = 1..=`max_k`.
pub fn search_curve(evals: &[InstanceEval], max_k: usize) -> Vec<CurvePoint> {
    (1..=max_k)
        .map(|k| {
            let n = evals.len().max(1) as f64;
            let tn = |f: &dyn Fn(&InstanceEval) -> f64| -> Vec<f64> { evals.iter().map(|e| f(e) / e.best).collect() };
            let guided = tn(&|e| guided_min(&e.candidates, k));
            let diverse = tn(&|e| diverse_min(e, k));
            let random = tn(&|e| expected_random_min(&e.candidates, k));
            let mean = |v: &[f64]| v.iter().sum::<f64>() / n;
            CurvePoint {
                k,
                guided: mean(&guided),
                diverse: mean(&diverse),
                random: mean(&random),
                guided_geo: geo_mean(guided),
                diverse_geo: geo_mean(diverse),
                random_geo: geo_mean(random),
            }
        })
        .collect()
}

/// Fastest measured time among the first `k` of the instance's search order.
fn diverse_min(e: &InstanceEval, k: usize) -> f64 {
    e.search_order.iter().take(k.max(1)).map(|&i| e.candidates[i].1).fold(f64::INFINITY, f64::min)
}

/// Fastest measured time among the `k` lowest predictions.
fn guided_min(cands: &[(String, f64, f64)], k: usize) -> f64 {
    let mut idx: Vec<usize> = (0..cands.len()).collect();
    idx.sort_by(|&a, &b| cands[a].2.total_cmp(&cands[b].2).then(a.cmp(&b)));
    idx.iter().take(k.max(1)).map(|&i| cands[i].1).fold(f64::INFINITY, f64::min)
}

/// E[min] of `k` of the measured times drawn without replacement: with the
/// times ascending, the i-th (0-based) is the minimum with probability
/// C(n-1-i, k-1) / C(n, k).
fn expected_random_min(cands: &[(String, f64, f64)], k: usize) -> f64 {
    let mut t: Vec<f64> = cands.iter().map(|c| c.1).collect();
    t.sort_by(f64::total_cmp);
    let n = t.len();
    let k = k.clamp(1, n.max(1));
    // p_i = C(n-1-i, k-1) / C(n, k); p_0 = k / n, p_{i+1} = p_i (n-i-k) / (n-1-i).
    let mut p = k as f64 / n as f64;
    let mut e = 0.0;
    for (i, &ti) in t.iter().enumerate() {
        e += p * ti;
        if i + 1 < n {
            p *= (n - i - k) as f64 / (n - 1 - i) as f64;
        }
    }
    e
}

/// Markdown table of [`search_curve`]: each cell is the arithmetic / the
/// geometric mean.
pub fn curve_markdown(curve: &[CurvePoint]) -> String {
    let mut s = String::from(
        "| measurements k | model-guided TN (k best predictions) | diverse model-guided TN (best of each kind first) | random search TN (k random) |\n|---|---|---|---|\n",
    );
    s.push_str("| | mean / geometric mean | mean / geometric mean | mean / geometric mean |\n");
    for p in curve {
        s.push_str(&format!(
            "| {} | {:.3} / {:.3} | {:.3} / {:.3} | {:.3} / {:.3} |\n",
            p.k, p.guided, p.guided_geo, p.diverse, p.diverse_geo, p.random, p.random_geo
        ));
    }
    s
}

/// Markdown table: one row per kernel and method, then the means.
pub fn markdown(evals: &[InstanceEval]) -> String {
    let mut kernels: Vec<&str> = evals.iter().map(|e| e.kernel.as_str()).collect();
    kernels.sort();
    kernels.dedup();
    let mut s = String::from(
        "| kernel | method | instances | TN | TN (geometric mean) | speedup | MAP % (instances) | PI % vs tile 32 |\n|---|---|---|---|---|---|---|---|\n",
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
                "| {label} | {m} | {} | {:.3} | {:.3} | {} | {map} | {} |\n",
                sum.instances,
                sum.tn,
                sum.tn_geo,
                f(sum.speedup, 2),
                f(sum.pi, 1)
            ));
        }
    };
    for k in &kernels {
        rows(k, evals.iter().filter(|e| e.kernel == *k).collect());
    }
    rows("**mean**", evals.iter().collect());
    let ruled = evals.iter().filter(|e| e.ruled).count();
    if ruled > 0 {
        s.push_str(&format!(
            "\n{ruled} of {} instances lie far outside the model's training range: T1 and T6-Search follow the cache rule there, as `tss predict` does.\n",
            evals.len()
        ));
    }
    s
}

/// [`Variant::search_class`] of each of an instance's candidates. The
/// band's depth is the longest tile list among them (stored rows write every
/// member out), so a repeated last unroll factor counts once per member.
fn search_classes<'a>(tiles: impl Iterator<Item = &'a str>) -> Vec<Option<(bool, bool, usize, usize)>> {
    let variants: Vec<Option<Variant>> = tiles.map(|t| t.parse::<Variant>().ok()).collect();
    let depth = variants
        .iter()
        .filter_map(|v| match v {
            Some(Variant::Tiled(c)) => Some(c.tiles.len()),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    variants.iter().map(|v| v.as_ref().and_then(|v| v.search_class(depth))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cands(times: &[f64]) -> Vec<(String, f64, f64)> {
        // Predictions rank the candidates in reverse order of their times.
        times.iter().enumerate().map(|(i, &t)| (format!("{i}"), t, -t)).collect()
    }

    /// A row of `tile` whose estimated L1 and L2 traffic are `l1` and `l2`.
    fn traffic_row(tile: &str, l1: f64, l2: f64) -> Record {
        let names = FeatureSet::Traffic.names();
        let mut features = vec![0.0; names.len()];
        features[names.iter().position(|n| *n == "LOG_TRAFFIC_L1").unwrap()] = l1;
        features[names.iter().position(|n| *n == "LOG_TRAFFIC_L2").unwrap()] = l2;
        Record { features, ..crate::dataset::tests::rec(tile) }
    }

    #[test]
    fn the_traffic_rule_takes_the_least_l2_then_l1_traffic_and_prefers_simple_code_on_ties() {
        let rows = [
            traffic_row(UNTILED, 3.0, 2.0),
            traffic_row("64", 2.0, 1.0),
            traffic_row("32", 1.5, 1.0),
            traffic_row("32:4", 1.5, 1.0),
            traffic_row("128", 0.5, 1.5),
        ];
        let refs: Vec<&Record> = rows.iter().collect();
        assert_eq!(traffic_rule_pick(&refs), Some(2), "least L2, then least L1, then not unrolled");
        let tie = [traffic_row("16", 1.0, 1.0), traffic_row(UNTILED, 1.0, 1.0)];
        assert_eq!(traffic_rule_pick(&tie.iter().collect::<Vec<_>>()), Some(1), "untiled on a tie");
        let narrow = Record { features: vec![0.0; 3], ..traffic_row("8", 0.0, 0.0) };
        assert_eq!(traffic_rule_pick(&[&narrow]), None, "rows without traffic features");
    }

    #[test]
    fn distrusted_ranking_times_the_cache_rule_then_the_original_then_its_neighbours() {
        let cubic = |tile: &str, t: f64| Record { ps: [1000; 3], ts: [t; 3], ..crate::dataset::tests::rec(tile) };
        let rows = [
            cubic("16", 16.0),
            cubic("64", 64.0),
            cubic(UNTILED, 1.0),
            cubic("64:4x1", 64.0),
            cubic("128", 128.0),
            cubic("256", 256.0),
        ];
        let refs: Vec<&Record> = rows.iter().collect();
        // The network prefers the register tile; the fallback ignores that.
        let pred = [5.0, 4.0, 6.0, 1.0, 3.0, 2.0];
        assert_eq!(ruled_order(&refs, 1, Some(2), &pred), vec![1, 2, 4, 0, 5, 3]);
        assert_eq!(ruled_order(&refs, 1, None, &pred), vec![1, 4, 0, 5, 3, 2]);
    }

    /// A row of `tile` on instance `sizes` that ran `time` seconds, with
    /// the `vector` set's features.
    fn timed_row(sizes: &str, tile: &str, time: f64) -> Record {
        let features = vec![0.0; FeatureSet::Vector.len()];
        Record { sizes: sizes.into(), time_median: Some(time), features, ..crate::dataset::tests::rec(tile) }
    }

    #[test]
    fn the_vector_constant_takes_each_tiles_vector_anchor_where_the_instance_has_one() {
        let train = [
            // An instance with vector tiles: 64's anchor (suffix `:4x1/v2`,
            // timed at both cubic tiles) is fastest; a sampled vector config
            // shares 64's plain part but not the anchors' suffix.
            timed_row("n=1", "32", 4.0),
            timed_row("n=1", "64", 2.0),
            timed_row("n=1", "32x32:4x1/v2", 3.0),
            timed_row("n=1", "64x64:4x1/v2", 1.0),
            timed_row("n=1", "64x64:2x1/v3", 1.5),
            // One without: 32 is much faster than 64.
            timed_row("n=2", "32", 1.0),
            timed_row("n=2", "64", 2.5),
        ];
        let c = best_constant(&train, FeatureSet::Vector);
        assert_eq!(c.plain.as_deref(), Some("32"), "TN 4 and 1 beat 2 and 2.5 in geometric mean");
        assert_eq!(c.vector.as_deref(), Some("64"), "as anchors, 64's TN 1 and 2.5 beat 32's 3 and 1");
        let refs: Vec<&Record> = train[..5].iter().collect();
        assert_eq!(vector_anchor(&refs, "64"), Some(3), "the suffix the other tile shares");
        assert_eq!(vector_anchor(&refs, "64x64"), Some(3), "a cubic tile written in full");
        assert_eq!(vector_anchor(&refs, "6"), None, "no row of this plain part");
        assert_eq!(vector_anchor(&refs, "64x64:4x1/v2"), None, "not a plain tile");
        assert_eq!(best_constant(&train, FeatureSet::Pack).vector, None, "a set blind to vector tiles");
    }

    #[test]
    fn random_search_expectation_is_exact() {
        let c = cands(&[4.0, 1.0, 3.0, 2.0]);
        assert_eq!(expected_random_min(&c, 1), 2.5);
        // Pairs of {1,2,3,4}: minima 1,1,1,2,2,3 -> mean 10/6.
        assert!((expected_random_min(&c, 2) - 10.0 / 6.0).abs() < 1e-12);
        assert_eq!(expected_random_min(&c, 4), 1.0);
        assert_eq!(expected_random_min(&c, 9), 1.0);
        // This model ranks the slowest first: guided search finds the best last.
        assert_eq!(guided_min(&c, 1), 4.0);
        assert_eq!(guided_min(&c, 4), 1.0);
    }

    #[test]
    fn a_repeated_unroll_factor_is_the_same_kind_as_written_out() {
        let c = search_classes(["64x64x64:4", "8x8x8:4x4x4", "8x8x8:4x1x1", "untiled"].into_iter());
        assert_eq!(c[0], c[1]);
        assert_eq!(c[0].map(|k| k.3), Some(64));
        assert_ne!(c[0], c[2]);
        assert_eq!(c[3], None);
    }

    #[test]
    fn the_diverse_search_times_another_kind_of_code_second() {
        // The model likes both 4x1 register tiles best, but the plain tile is fastest.
        let candidates: Vec<(String, f64, f64)> =
            [("64x64:4x1", 3.0, 0.1), ("32x64:4x1", 2.5, 0.2), ("64x64", 1.0, 0.3)]
                .iter()
                .map(|&(t, m, p)| (t.to_string(), m, p))
                .collect();
        let pred: Vec<f64> = candidates.iter().map(|c| c.2).collect();
        let classes = search_classes(candidates.iter().map(|c| c.0.as_str()));
        let class = |k: usize| classes[k];
        let e = InstanceEval {
            kernel: "k".into(),
            sizes: "n=1".into(),
            best: 1.0,
            baseline: None,
            scores: BTreeMap::new(),
            search_order: search_order(&pred, class, None),
            candidates,
            t1_tile: "64x64:4x1".into(),
            ruled: false,
            strided: false,
            recurrent: false,
            threaded: false,
            parts: None,
            compiled: None,
            left_out: Vec::new(),
        };
        assert_eq!(e.search_order, vec![0, 2, 1]);
        let c = search_curve(&[e], 3);
        assert_eq!((c[0].guided, c[0].diverse), (3.0, 3.0), "one measurement: T1 either way");
        assert_eq!((c[1].guided, c[1].diverse), (2.5, 1.0));
        assert_eq!((c[2].guided, c[2].diverse), (1.0, 1.0));
    }

    #[test]
    fn a_strided_original_is_never_first_and_still_timed_second() {
        // The network ranks the original (2) first, then 0, then 1.
        let pred = [0.2, 0.3, 0.1];
        let kind = |k: usize| k == 2;
        let p = picks(&pred, kind, Some(2), OriginalPlace::default());
        assert_eq!((p.t1, p.order.clone()), (2, vec![2, 0, 1]));
        let p = picks(&pred, kind, Some(2), OriginalPlace::of(true, false, false));
        assert_eq!((p.t1, p.kept[0], p.order.clone()), (0, 0, vec![0, 2, 1]));
        // The gate puts an original ranked last first (the caller never asks
        // for a strided one).
        let pred = [0.1, 0.3, 0.2];
        assert_eq!(picks(&pred, kind, Some(2), OriginalPlace::of(false, false, true)).order, vec![2, 0, 1]);
        assert_eq!(picks(&pred, kind, Some(2), OriginalPlace::of(false, false, true)).t1, 2);
        assert_eq!(picks(&pred, kind, None, OriginalPlace::of(false, true, true)).t1, 0);
    }

    #[test]
    fn on_a_new_structure_only_the_gate_keeps_the_original() {
        // The network ranks the original (2) first; the structure is new.
        let pred = [0.2, 0.3, 0.1];
        let kind = |k: usize| k == 2;
        let p = picks(&pred, kind, Some(2), OriginalPlace::of(false, true, false));
        assert_eq!((p.t1, p.order.clone()), (0, vec![0, 2, 1]), "a tile first, the original timed second");
        let p = picks(&pred, kind, Some(2), OriginalPlace::of(false, true, true));
        assert_eq!((p.t1, p.order.clone()), (2, vec![2, 0, 1]), "the gate fired: the original first");
    }

    /// An instance whose T1 took `t1` against a best of 1 (two candidates).
    fn scored(t1: f64) -> InstanceEval {
        let score = Score { time: t1, tn: t1, speedup: None, map: None, config: None };
        InstanceEval {
            kernel: "k".into(),
            sizes: format!("n={t1}"),
            best: 1.0,
            baseline: None,
            scores: BTreeMap::from([("T1".to_string(), score)]),
            candidates: vec![("64".into(), t1, 0.0), ("32".into(), 1.0, 1.0)],
            t1_tile: "64".into(),
            search_order: vec![0, 1],
            ruled: false,
            strided: false,
            recurrent: false,
            threaded: false,
            parts: None,
            compiled: None,
            left_out: Vec::new(),
        }
    }

    #[test]
    fn summaries_and_curves_give_geometric_means_beside_arithmetic_ones() {
        let evals = [scored(1.0), scored(4.0)];
        let s = &summarize(&evals.iter().collect::<Vec<_>>())["T1"];
        assert_eq!(s.tn, 2.5);
        assert!((s.tn_geo - 2.0).abs() < 1e-12, "sqrt(1 * 4)");
        let c = search_curve(&evals, 2);
        assert_eq!((c[0].guided, c[0].diverse), (2.5, 2.5));
        assert!((c[0].guided_geo - 2.0).abs() < 1e-12 && (c[0].diverse_geo - 2.0).abs() < 1e-12);
        // One random pick of {1, 4} expects 2.5 and of {1, 1} 1: the means of those.
        assert!((c[0].random - 1.75).abs() < 1e-12 && (c[0].random_geo - 2.5f64.sqrt()).abs() < 1e-12);
        assert_eq!((c[1].guided_geo, c[1].random_geo), (1.0, 1.0), "both measured: the best");
    }
}
