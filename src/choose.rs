//! Choosing tile sizes for a kernel: the whole method behind `tss predict`,
//! as a library call a `build.rs` can make ([`choose_tiles`]).
//!
//! Tile the SCoP, enumerate the paper's candidates for the given sizes,
//! compute their features, predict all of them in one batch, keep the best
//! 10 % and pick one (T1, T6-Random, or T6-Search which compiles and times
//! the kept ones). Results are cached by kernel text, sizes, model and
//! machine, so rebuilds do not recompute them.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::Config;
use crate::features::candidates;
use crate::harness::compile::{Compiler, fnv1a};
use crate::harness::session::{Policy, Session};
use crate::harness::{Mode, Status, Variant};
use crate::instance::Sizes;
use crate::machine::{Caches, Descriptor, MachineInfo, human};
use crate::model::saved::SavedModel;
use crate::model::source::ModelSource;
use crate::select::{Strategy, cache_rule, keep_best, neighbours, random_pick};
use crate::{Error, TileOptions};

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
}

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
        }
    }
}

/// One kept candidate.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Kept {
    pub tile: Vec<usize>,
    pub predicted: f64,
    /// Measured median seconds (T6-Search only).
    pub measured: Option<f64>,
}

/// The decision, as reported and cached.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Choice {
    pub file: String,
    pub sizes: String,
    pub strategy: Strategy,
    /// Chosen size per band member (`TSS_T1`, `TSS_T2`, ...).
    pub tile: Vec<usize>,
    pub predicted: f64,
    pub candidates: usize,
    pub kept: Vec<Kept>,
    /// Measured median seconds of the untiled original (T6-Search only,
    /// which runs it anyway as the reference the candidates are checked against).
    #[serde(default)]
    pub untiled: Option<f64>,
    pub model: String,
    pub warnings: Vec<String>,
    #[serde(skip)]
    pub from_cache: bool,
    /// The file with every SCoP tiled and the chosen sizes as defaults.
    #[serde(skip)]
    pub code: String,
}

impl Choice {
    /// `-DTSS_T1=64 -DTSS_T2=64 ...`
    pub fn defines(&self) -> String {
        self.tile.iter().enumerate().map(|(k, t)| format!("-DTSS_T{}={t}", k + 1)).collect::<Vec<_>>().join(" ")
    }
    /// `#define TSS_T1 64` lines.
    pub fn header(&self) -> String {
        let mut s = format!("/* tss predict {} {} ({}) */\n", self.file, self.sizes, self.strategy);
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
    let retile = |tile: &[usize]| -> Result<String, Error> {
        let (code, _) = crate::tile_source(
            file,
            &src,
            &TileOptions { config: Config::tiled(tile.to_vec()), parallel: opts.parallel, ..TileOptions::default() },
        )?;
        Ok(code)
    };
    let key = cache_key(&src, &sizes, opts);
    if let Some(mut c) = key.as_ref().and_then(|k| read_cache(opts, k)) {
        c.from_cache = true;
        c.code = retile(&c.tile)?;
        return Ok(c);
    }
    let model = opts.model.load().map_err(Error::Usage)?;
    let mut warnings = provenance_warnings(&model, opts);
    let ps = a.extents(&sizes)?;
    let sizes_list = candidates(&ps, &opts.caches);
    let tiles: Vec<Vec<usize>> = sizes_list.iter().map(|&t| vec![t; d]).collect();
    let set = model.feature_set();
    let rows: Vec<Vec<f64>> = tiles.iter().map(|t| a.kernel.vector(set, &ps, t, &opts.caches)).collect();
    let predicted = model.predict(&rows);
    let best = keep_best(&predicted);
    let rule = cache_rule(&sizes_list, |t| a.kernel.working_set(&vec![t; d]), opts.caches.l2);
    let kept_idx = match (distrust(&model, &rows, &predicted, best[0]), rule) {
        (Some(why), Some(rule)) => {
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
    let mut kept: Vec<Kept> =
        kept_idx.iter().map(|&k| Kept { tile: tiles[k].clone(), predicted: predicted[k], measured: None }).collect();
    let mut untiled = None;
    let pick = match opts.strategy {
        Strategy::T1 => 0,
        Strategy::T6Random => {
            let seq: Vec<usize> = (0..kept.len()).collect();
            random_pick(&seq, opts.seed).unwrap_or(0)
        }
        Strategy::T6Search => {
            let (pick, base) =
                search(&a, &sizes, &mut kept, opts).map_err(|e| Error::Usage(format!("{}: {e}", file.display())))?;
            untiled = base;
            if let (Some(u), Some(m)) = (base, kept[pick].measured)
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
    let choice = Choice {
        file: file.display().to_string(),
        sizes: sizes.to_string(),
        strategy: opts.strategy,
        tile: kept[pick].tile.clone(),
        predicted: kept[pick].predicted,
        candidates: tiles.len(),
        kept,
        untiled,
        model: opts.model.to_string(),
        warnings,
        from_cache: false,
        code: String::new(),
    };
    if let Some(k) = &key {
        write_cache(opts, k, &choice);
    }
    Ok(Choice { code: retile(&choice.tile)?, ..choice })
}

/// Why the model's ranking cannot be used here, if it cannot: every
/// candidate predicted the same (the network saturates), or the best
/// candidate's features lie more than a whole training span outside the
/// range the model was trained on.
fn distrust(model: &SavedModel, rows: &[Vec<f64>], predicted: &[f64], best: usize) -> Option<String> {
    let lo = predicted.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = predicted.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if predicted.len() > 1 && (!lo.is_finite() || !hi.is_finite() || hi - lo <= 1e-9 * hi.abs()) {
        return Some("the model predicts the same time for every candidate (its inputs saturate)".into());
    }
    let far = model.meta.normalizer.outside(&rows[best], 1.0);
    if far.is_empty() {
        return None;
    }
    let names = model.feature_set().names();
    let far: Vec<&str> = far.iter().map(|&k| names[k]).collect();
    Some(format!("these sizes lie far outside the model's training range (features {})", far.join(", ")))
}

/// The untiled original must beat the chosen tile by this factor before
/// tss says so: it is timed once, the candidates several times.
const UNTILED_MARGIN: f64 = 0.95;

/// T6-Search: time the kept candidates (checked against untiled), take the
/// fastest. Also returns the untiled original's time.
fn search(
    a: &crate::Analysis,
    sizes: &Sizes,
    kept: &mut [Kept],
    opts: &ChooseOptions,
) -> Result<(usize, Option<f64>), String> {
    let session = Session::new(a, Mode::from_parallel(opts.parallel), Compiler::from_env()?, opts.policy)?;
    let variants: Vec<Variant> = kept.iter().map(|k| Variant::Tiled(Config::tiled(k.tile.clone()))).collect();
    let mut untiled = None;
    session.measure(sizes, &variants, None, 1, |v, t| match (v, t.status) {
        (Variant::Untiled, Status::Ok) => untiled = t.median(),
        (Variant::Tiled(tile), Status::Ok) => {
            if let Some(k) = kept.iter_mut().find(|k| k.tile == tile.tiles) {
                k.measured = t.median();
            }
        }
        _ => {}
    })?;
    let pick = (0..kept.len())
        .filter(|&k| kept[k].measured.is_some())
        .min_by(|&x, &y| kept[x].measured.unwrap_or(f64::MAX).total_cmp(&kept[y].measured.unwrap_or(f64::MAX)))
        .ok_or_else(|| "no kept candidate ran correctly".to_string())?;
    Ok((pick, untiled))
}

/// Warnings when the model was trained elsewhere or with other flags.
fn provenance_warnings(model: &SavedModel, opts: &ChooseOptions) -> Vec<String> {
    let mut w = Vec::new();
    let d = &model.meta.data;
    let compiler = Compiler::from_env().ok();
    let advice = "prefer --mode t6-search, or run tss collect + tss train here";
    if let (Some(trained), Some(c)) = (&d.machine, &compiler) {
        let diffs = trained.differences(&Descriptor::detect(&c.version, &c.flags()));
        if !diffs.is_empty() {
            w.push(format!("the model was trained on another machine ({}): {advice}", diffs.join(", ")));
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
    if !d.mode.is_empty() && d.mode != mode {
        w.push(format!("the model was trained on {} timings but is used for {mode} code", d.mode));
    }
    w
}

fn cache_key(src: &str, sizes: &Sizes, opts: &ChooseOptions) -> Option<String> {
    opts.cache.as_ref()?;
    let model = opts.model.fingerprint()?;
    let info = MachineInfo::detect();
    let sizes = sizes.to_string();
    let setup = format!(
        "{:?}{}{}{:?}{:?}",
        opts.caches,
        opts.strategy,
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
