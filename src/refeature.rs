//! Recomputing the stored features of a dataset file from the kernels'
//! sources, timing nothing.
//!
//! A row's features are a function of its kernel, sizes, config and
//! machine; its timing is not. So when the feature definition grows (a new
//! set, [`crate::dataset::STORED`] wider), hours of measurements serve it
//! after one pass of this, which takes seconds. The pass also checks that
//! the features a row already had come out the same, so a silent change to
//! an existing feature shows up as a count instead of skewing models.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::collect::stem;
use crate::dataset::{self, Record, STORED};
use crate::features::{FeatureSet, Shape};
use crate::harness::Variant;
use crate::instance::Sizes;
use crate::machine::Caches;
use crate::{Analysis, Error};

/// What one file's pass did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    pub rows: usize,
    /// Rows whose already stored features differ from the recomputed ones.
    pub changed: usize,
    /// The first such difference: row, feature name, stored and new value.
    pub first_change: Option<String>,
}

/// The kernels a dataset's rows were measured on, found by file stem, each
/// analysed once per mode and each instance shaped once, on first use: the
/// one walk from stored rows back to their sources that refeaturing, the
/// gate's traits and eval's copy rule share.
pub struct Sources<'a> {
    by_stem: HashMap<String, &'a PathBuf>,
    analyses: HashMap<(String, bool), Analysis>,
    /// By kernel, mode, sizes, vector width and threads.
    shapes: HashMap<(String, bool, String, u32, usize), Shape>,
}

impl<'a> Sources<'a> {
    pub fn new(kernels: &'a [PathBuf]) -> Sources<'a> {
        Sources {
            by_stem: kernels.iter().map(|k| (stem(k), k)).collect(),
            analyses: HashMap::new(),
            shapes: HashMap::new(),
        }
    }

    /// The analysis of `kernel` (a file stem); `None` when no file has that stem.
    pub fn analysis(&mut self, kernel: &str, parallel: bool) -> Result<Option<&Analysis>, Error> {
        let key = (kernel.to_string(), parallel);
        if !self.analyses.contains_key(&key) {
            let Some(file) = self.by_stem.get(kernel) else { return Ok(None) };
            let src = std::fs::read_to_string(file).map_err(|source| Error::Io { path: (*file).clone(), source })?;
            self.analyses.insert(key.clone(), crate::analyze(file, &src, parallel)?);
        }
        Ok(self.analyses.get(&key))
    }

    /// The analysis of `kernel` and a row's `sizes` bound to its
    /// parameters; `None` when no file has that stem.
    pub fn sized(&mut self, kernel: &str, parallel: bool, sizes: &str) -> Result<Option<(&Analysis, Sizes)>, Error> {
        let Some(a) = self.analysis(kernel, parallel)? else { return Ok(None) };
        let bound =
            Sizes::parse(&a.scop.params, sizes).map_err(|e| Error::Usage(format!("{kernel} at {sizes}: {e}")))?;
        Ok(Some((a, bound)))
    }

    /// The analysis of `kernel` and the shape of its instance at `sizes`
    /// for `vector_bits` and `threads`; `None` when no file has that stem.
    pub fn shaped(
        &mut self,
        kernel: &str,
        parallel: bool,
        sizes: &str,
        vector_bits: u32,
        threads: usize,
    ) -> Result<Option<(&Analysis, &Shape)>, Error> {
        let key = (kernel.to_string(), parallel, sizes.to_string(), vector_bits, threads);
        if !self.shapes.contains_key(&key) {
            let Some((a, bound)) = self.sized(kernel, parallel, sizes)? else { return Ok(None) };
            let shape = a.shape(&bound, vector_bits, threads)?;
            self.shapes.insert(key.clone(), shape);
        }
        Ok(Some((&self.analyses[&(key.0.clone(), parallel)], &self.shapes[&key])))
    }

    /// [`Sources::shaped`] for the rules that read a stored row's source
    /// (the gate's traits, the copy rule): neither reads the vector width,
    /// nor the thread count beyond whether there are several, so all of
    /// them share one shape per instance.
    pub fn shaped_for_rules(
        &mut self,
        kernel: &str,
        mode: &str,
        sizes: &str,
    ) -> Result<Option<(&Analysis, &Shape)>, Error> {
        let parallel = mode == "parallel";
        self.shaped(kernel, parallel, sizes, 256, if parallel { 2 } else { 1 })
    }

    /// Whether no kernel file was given, so that no row's source is known.
    pub fn is_empty(&self) -> bool {
        self.by_stem.is_empty()
    }

    /// The message for a row whose kernel [`Sources::analysis`] does not know.
    pub fn unknown(kernel: &str) -> String {
        format!("kernel '{kernel}' is in none of the --kernels files")
    }
}

/// Rewrites `path` with every row's features recomputed as [`STORED`]
/// describes them; `kernels` are the `.c` files its rows were measured on
/// (found by file stem). The file is replaced atomically.
pub fn refeature(path: &Path, kernels: &[PathBuf]) -> Result<Summary, Error> {
    let usage = Error::Usage;
    let mut records = dataset::load(path).map_err(usage)?;
    let machine = dataset::machine_of(path).map_err(usage)?.ok_or_else(|| {
        usage(format!(
            "{}: no {} beside it, so the machine (its vector width) is unknown",
            path.display(),
            dataset::machine_path(path).display()
        ))
    })?;
    let mut sources = Sources::new(kernels);
    let names = STORED.names();
    let mut summary = Summary { rows: records.len(), ..Summary::default() };
    for (k, r) in records.iter_mut().enumerate() {
        let line = k + 2;
        let at = |msg: String| usage(format!("{}:{line}: {msg}", path.display()));
        let parallel = r.mode == "parallel";
        let (a, shape) = sources
            .shaped(&r.kernel, parallel, &r.sizes, machine.vector_bits, machine.threads(parallel))
            .map_err(|e| match e {
                Error::Usage(m) => at(m),
                e => e,
            })?
            .ok_or_else(|| at(Sources::unknown(&r.kernel)))?;
        let new = features(a, shape, r).map_err(&at)?;
        if let Some((j, old)) = r.features.iter().zip(&new).enumerate().find(|(_, (o, n))| differ(**o, **n)) {
            summary.changed += 1;
            summary.first_change.get_or_insert_with(|| {
                format!("{}:{line}: {} was {} and is now {}", path.display(), names[j], old.0, old.1)
            });
        }
        r.features = new;
    }
    dataset::rewrite(path, &records).map_err(usage)?;
    Ok(summary)
}

/// Appends the columns of [`crate::features::FeatureSet::Bands`] (and of
/// [`crate::features::FeatureSet::Copy`] where `set` has them), which no
/// file stores, to every row of `records` (read from `path`) that has
/// exactly the stored ones and whose kernel `sources` knows; the rest stay
/// narrower (no model of that set ranks them). Returns how many rows of how
/// many kernels were left so.
pub fn derive(
    path: &Path,
    records: &mut [Record],
    sources: &mut Sources,
    set: FeatureSet,
) -> Result<(usize, usize), String> {
    let Some(machine) = dataset::machine_of(path)? else {
        let beside = dataset::machine_path(path);
        return Err(format!("{}: no {} beside it: its CPU is unknown", path.display(), beside.display()));
    };
    let mut unknown = std::collections::BTreeSet::new();
    let mut left = 0;
    for (k, r) in records.iter_mut().enumerate().filter(|(_, r)| r.features.len() == STORED.len()) {
        let at = |msg: String| format!("{}:{}: {msg}", path.display(), k + 2);
        let parallel = r.mode == "parallel";
        let threads = machine.threads(parallel);
        let Some((a, shape)) = sources
            .shaped(&r.kernel, parallel, &r.sizes, machine.vector_bits, threads)
            .map_err(|e| at(e.to_string()))?
        else {
            unknown.insert(r.kernel.clone());
            left += 1;
            continue;
        };
        let config = config_of(a, r).map_err(&at)?;
        r.features.extend(a.kernel.bands_extra(shape, config.as_ref(), &caches_of(r)));
        if set >= FeatureSet::Copy {
            r.features.extend(a.kernel.copy_extra(shape, config.as_ref()));
        }
    }
    Ok((left, unknown.len()))
}

/// The caches row `r` was measured with.
fn caches_of(r: &Record) -> Caches {
    Caches { l1d: r.meta.l1d, l2: r.meta.l2, line: r.meta.line }
}

/// The [`STORED`] features of row `r` of kernel `a` at instance `shape`,
/// with the caches the row was measured with.
fn features(a: &Analysis, shape: &Shape, r: &Record) -> Result<Vec<f64>, String> {
    Ok(a.kernel.vector(STORED, shape, config_of(a, r)?.as_ref(), &caches_of(r)))
}

/// The config row `r` timed, as kernel `a`'s features see it (`None`: the
/// untiled code).
fn config_of(a: &Analysis, r: &Record) -> Result<Option<crate::config::Config>, String> {
    Ok(r.tile.parse::<Variant>()?.feature_config(a.tile_dims()))
}

/// Whether two feature values differ beyond the rounding of a CSV round trip.
fn differ(old: f64, new: f64) -> bool {
    (old - new).abs() > 1e-9 * old.abs().max(new.abs()).max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::Descriptor;

    /// A dataset file as a version storing only `registers` wrote it: two
    /// rows of gemm-ikj (untiled and a register tile), the wider columns empty.
    fn old_file(dir: &Path, kernel: &Path) -> (PathBuf, Vec<Record>) {
        let src = std::fs::read_to_string(kernel).unwrap();
        let a = crate::analyze(kernel, &src, false).unwrap();
        let sizes = Sizes::parse(&a.scop.params, "NI=100,NJ=120,NK=90").unwrap();
        let shape = a.shape(&sizes, 256, 1).unwrap();
        let caches = Caches { l1d: 32 << 10, l2: 512 << 10, line: 64 };
        let meta = dataset::Meta { l1d: caches.l1d, l2: caches.l2, line: caches.line, ..Default::default() };
        let rows: Vec<Record> = ["untiled", "32x64x16:2x1x4"]
            .iter()
            .map(|tile| {
                let config = tile.parse::<Variant>().unwrap().feature_config(a.tile_dims());
                Record {
                    kernel: "gemm-ikj".into(),
                    mode: "serial".into(),
                    instance: "1:0".into(),
                    sizes: sizes.to_string(),
                    ps: shape.ps,
                    tile: tile.to_string(),
                    ts: [1.0; 3],
                    status: crate::harness::Status::Ok,
                    time_min: Some(0.01),
                    time_median: Some(0.01),
                    time_spread: Some(0.0),
                    reps: 3,
                    checksum: Some(1.0),
                    baseline_time: Some(0.01),
                    features: a.kernel.vector(FeatureSet::Registers, &shape, config.as_ref(), &caches),
                    meta: meta.clone(),
                    unix_time: 0,
                }
            })
            .collect();
        let path = dir.join("rows.csv");
        dataset::rewrite(&path, &rows).unwrap();
        let machine = Descriptor { vector_bits: 256, ..Descriptor::detect("cc", "-O3") };
        std::fs::write(dataset::machine_path(&path), serde_json::to_string(&machine).unwrap()).unwrap();
        (path, rows)
    }

    #[test]
    fn loading_for_the_bands_set_derives_its_columns_from_the_sources() {
        let dir = tempfile::tempdir().unwrap();
        let kernel = PathBuf::from("corpus/random/rand-70.c");
        let (path, _) = old_file(dir.path(), &PathBuf::from("corpus/blas/gemm-ikj.c"));
        // The same rows as another kernel's, at the stored width: rand-70 has two tiled bands.
        let text = std::fs::read_to_string(&path).unwrap().replace("gemm-ikj", "rand-70");
        std::fs::write(&path, text).unwrap();
        refeature(&path, std::slice::from_ref(&kernel)).unwrap();
        let stored = dataset::load_all(std::slice::from_ref(&path)).unwrap();
        let bands = FeatureSet::Bands;
        let rows = dataset::load_for(std::slice::from_ref(&path), bands, std::slice::from_ref(&kernel)).unwrap();
        let src = std::fs::read_to_string(&kernel).unwrap();
        let a = crate::analyze(&kernel, &src, false).unwrap();
        let shape = a.shape(&Sizes::parse(&a.scop.params, &rows[0].sizes).unwrap(), 256, 1).unwrap();
        for (s, r) in stored.iter().zip(&rows) {
            assert_eq!(r.features.len(), bands.len());
            assert_eq!(&r.features[..STORED.len()], &s.features[..], "stored columns kept");
            let config = r.tile.parse::<Variant>().unwrap().feature_config(a.tile_dims());
            assert_eq!(r.features, a.kernel.vector(bands, &shape, config.as_ref(), &caches_of(r)), "{}", r.tile);
            assert!(r.is_candidate(bands));
        }
        // The runner-up's share of the work: one of two equal 3-deep statements.
        let share = rows[1].features[STORED.len()];
        assert!((0.45..0.5).contains(&share), "{share}");
        // The `copy` set derives its columns after the runner-up's.
        let copy = FeatureSet::Copy;
        for r in dataset::load_for(std::slice::from_ref(&path), copy, std::slice::from_ref(&kernel)).unwrap() {
            let config = r.tile.parse::<Variant>().unwrap().feature_config(a.tile_dims());
            assert_eq!(r.features, a.kernel.vector(copy, &shape, config.as_ref(), &caches_of(&r)), "{}", r.tile);
        }
        // Rows of a kernel no source is found for stay as stored, and rank nowhere.
        let text = std::fs::read_to_string(&path).unwrap().replace("rand-70", "no-such-kernel");
        std::fs::write(&path, text).unwrap();
        let narrow = dataset::load_for(std::slice::from_ref(&path), bands, std::slice::from_ref(&kernel)).unwrap();
        assert!(narrow.iter().all(|r| r.features.len() == STORED.len() && !r.is_candidate(bands)));
    }

    #[test]
    fn refeature_widens_old_rows_and_keeps_what_they_stored() {
        let dir = tempfile::tempdir().unwrap();
        let kernel = PathBuf::from("corpus/blas/gemm-ikj.c");
        let (path, old) = old_file(dir.path(), &kernel);
        let s = refeature(&path, std::slice::from_ref(&kernel)).unwrap();
        assert_eq!((s.rows, s.changed), (2, 0), "{:?}", s.first_change);
        let new = dataset::load(&path).unwrap();
        let untiled = STORED.names().iter().position(|n| *n == "UNTILED").unwrap();
        for (o, n) in old.iter().zip(&new) {
            assert_eq!(n.features.len(), STORED.len());
            assert_eq!(&n.features[..o.features.len()], &o.features[..]);
            assert_eq!(n.features[untiled], if n.tile == "untiled" { 1.0 } else { 0.0 });
        }
        // A stored feature that no longer matches is counted and named.
        let mut tampered = new.clone();
        tampered[1].features[0] += 1.0;
        dataset::rewrite(&path, &tampered).unwrap();
        let s = refeature(&path, std::slice::from_ref(&kernel)).unwrap();
        assert_eq!(s.changed, 1);
        assert!(s.first_change.unwrap().contains("rows.csv:3: PS1"));
        // Rows of a kernel not given: one line naming file, row and kernel.
        let e = refeature(&path, &[PathBuf::from("corpus/blas/gemv.c")]).unwrap_err().to_string();
        assert!(e.contains("rows.csv:2: kernel 'gemm-ikj'"), "{e}");
    }
}
