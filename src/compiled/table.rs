//! The compiler's estimates of a data directory's kinds of code, kept in
//! a table beside its rows ([`TABLE`]): what the `compiled` feature set's
//! columns of stored rows are made of ([`Table::attach`]), filled in by
//! `tss estimate` and `tss adapt` ([`Filler`]).

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::{Mca, analysis_at, at, kind, kind_label, rates};
use crate::Analysis;
use crate::Error;
use crate::dataset::Record;
use crate::harness::compile::Compiler;
use crate::harness::session::{Policy, Session};
use crate::harness::{Mode, Variant};
use crate::instance::Sizes;
use crate::refeature::Sources;

/// The file beside a directory's dataset rows holding the compiler's
/// estimates of their kernels' kinds of code ([`Table`]): one machine's, as
/// the rows are.
pub const TABLE: &str = "compiled.csv";

/// One kernel and mode's estimates: its band's depth (to name a row's kind)
/// and each kind's lanes per cycle (`None`: no estimate).
#[derive(Clone, Debug, Default)]
pub struct KernelRates {
    pub dims: usize,
    pub rate: HashMap<String, Option<f64>>,
}

/// The compiler's lanes per cycle of every kind of code of a data
/// directory's kernels, by (kernel, mode): what the `compiled` feature
/// set's columns of stored rows are computed from ([`Table::attach`]).
#[derive(Clone, Debug, Default)]
pub struct Table {
    pub kernels: HashMap<(String, String), KernelRates>,
}

const TABLE_HEADER: &str = "kernel,mode,dims,kind,lanes_per_cycle,cpu";

impl Table {
    /// The table of data directory `dir` (empty when it has none).
    pub fn load(dir: &Path) -> Result<Table, String> {
        let path = dir.join(TABLE);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Table::default()),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let mut table = Table::default();
        for (n, line) in text.lines().enumerate().skip(1).filter(|(_, l)| !l.trim().is_empty()) {
            let bad = |why: &str| format!("{}:{}: {why}", path.display(), n + 1);
            let f: Vec<&str> = line.split(',').collect();
            let [kernel, mode, dims, kind, rate, _cpu] = f[..] else { return Err(bad("expected 6 fields")) };
            let dims = dims.parse().map_err(|_| bad("bad dims"))?;
            let rate = match rate {
                "" => None,
                r => Some(r.parse::<f64>().ok().filter(|r| *r > 0.0).ok_or_else(|| bad("bad lanes per cycle"))?),
            };
            let k = table.kernels.entry((kernel.into(), mode.into())).or_default();
            k.dims = dims;
            k.rate.insert(kind.into(), rate);
        }
        Ok(table)
    }

    /// Appends one kernel and mode's estimates to `dir`'s table file (made
    /// with its header if new), so an interrupted estimate keeps them.
    pub fn append(dir: &Path, kernel: &str, mode: &str, rates: &KernelRates, cpu: &str) -> Result<(), String> {
        let path = dir.join(TABLE);
        let new = !path.exists();
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let mut text = if new { format!("{TABLE_HEADER}\n") } else { String::new() };
        let mut kinds: Vec<_> = rates.rate.iter().collect();
        kinds.sort_by(|a, b| a.0.cmp(b.0));
        for (kind, r) in kinds {
            let r = r.map_or(String::new(), |r| format!("{r:.4}"));
            text.push_str(&format!("{kernel},{mode},{},{kind},{r},{cpu}\n", rates.dims));
        }
        f.write_all(text.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Appends the `compiled` columns to every row of `records` that has
    /// exactly the `copy` features (the stored ones and those loading
    /// derives, [`crate::dataset::load_for`]) and whose kernel and mode the table
    /// holds; other rows stay narrower (no `compiled` model ranks them).
    pub fn attach(&self, records: &mut [Record]) {
        let stored = crate::features::FeatureSet::Copy.len();
        for r in records.iter_mut().filter(|r| r.features.len() == stored) {
            let Some(k) = self.kernels.get(&(r.kernel.clone(), r.mode.clone())) else { continue };
            let Ok(v) = r.tile.parse::<Variant>() else { continue };
            r.features.extend(k.columns(&kind_label(&kind(&v, k.dims))));
        }
    }
}

impl KernelRates {
    /// The `compiled` columns of kind `label` ([`columns`]).
    pub fn columns(&self, label: &str) -> [f64; 3] {
        let get = |l: &str| self.rate.get(l).copied().flatten();
        let best = self.rate.values().flatten().copied().fold(0.0, f64::max);
        columns(get(label), get("untiled"), best)
    }

    /// Appends to each source feature row the `compiled` columns of its
    /// variant's kind: how `tss predict` and `tss adapt`'s guide widen a
    /// candidate's row for a model of that set.
    pub fn extend_rows(&self, rows: &mut [Vec<f64>], variants: &[Variant]) {
        for (row, v) in rows.iter_mut().zip(variants) {
            row.extend(self.columns(&kind_label(&kind(v, self.dims))));
        }
    }
}

/// LOG_LANES, LANES_GAIN and LANES_SHARE of a kind whose hottest loop runs
/// `rate` lanes per cycle, where the untiled code's runs `original` and
/// the best kind's `best`. A kind without an estimate counts as the code as
/// written (the compiler found no floating-point loop, or failed).
pub fn columns(rate: Option<f64>, original: Option<f64>, best: f64) -> [f64; 3] {
    let Some(r) = rate.or(original) else { return [0.0, 0.0, 1.0] };
    let gain = original.map_or(0.0, |o| (r / o).log2());
    [r.log2(), gain, if best > 0.0 { (r / best).min(1.0) } else { 1.0 }]
}

/// A data directory's [`Table`], filled in as kinds of code are met: `tss
/// estimate` fills it for stored rows, `tss adapt` for the rows it times and
/// the candidates its guide ranks. Each kind is estimated once per kernel
/// and mode, at the sizes it is first met at (the hot loop barely depends
/// on them), and appended at once, so an interrupted run keeps its work.
pub struct Filler {
    dir: PathBuf,
    pub table: Table,
    compiler: Compiler,
    mca: Mca,
    /// The CPU estimated for, as the table records it (`native`: this one).
    cpu: String,
    /// Kinds estimated and appended since opened.
    pub added: usize,
}

impl Filler {
    /// The filler of `dir`'s table, compiling with `compiler` and modelling
    /// `mca`'s CPU (named `cpu` in the table).
    pub fn open(dir: &Path, compiler: Compiler, mca: Mca, cpu: &str) -> Result<Filler, Error> {
        let table = Table::load(dir).map_err(Error::Usage)?;
        Ok(Filler { dir: dir.to_path_buf(), table, compiler, mca, cpu: cpu.into(), added: 0 })
    }

    /// The filler of the rows in `dir`, whose `machine.json` (if any) says
    /// what they were timed on: this machine's rows compile with `$CC
    /// $CFLAGS`; another's need `march` (it replaces their flags'
    /// `-march=native`; llvm-mca then models `mcpu`, or `march`).
    pub fn for_rows(dir: &Path, mca: Mca, march: Option<&str>, mcpu: Option<&str>) -> Result<Filler, Error> {
        let here_cc = Compiler::from_env().map_err(Error::Usage)?;
        let theirs = crate::dataset::machine_in(dir).map_err(Error::Usage)?;
        let (compiler, cpu) = match (march, &theirs) {
            (Some(m), Some(t)) => {
                let flags = t.cflags.replace("-march=native", &format!("-march={m}"));
                (here_cc.with_cflags(&flags), mcpu.unwrap_or(m).to_string())
            }
            (Some(_), None) => {
                let why = "no machine.json, so no flags to compile for --march";
                return Err(Error::Usage(format!("{}: {why}", dir.display())));
            }
            (None, Some(t)) => {
                let here = crate::machine::Descriptor::detect(&here_cc.version, &here_cc.flags());
                let diffs = t.differences(&here);
                if !diffs.is_empty() {
                    return Err(Error::Usage(format!(
                        "{}: rows of {}, but this machine is {} (differs in {}): name their CPU with --march (e.g. \
                         znver3)",
                        dir.display(),
                        t.summary(),
                        here.summary(),
                        diffs.join(", ")
                    )));
                }
                (here_cc, "native".to_string())
            }
            (None, None) => (here_cc, "native".to_string()),
        };
        let mca = mca.for_cpu(&cpu);
        Filler::open(dir, compiler, mca, &cpu)
    }

    /// The compiler's version and the CPU estimated for, for reports.
    pub fn describe(&self) -> String {
        format!("{} ({})", self.cpu, self.compiler.version)
    }

    /// The table file.
    pub fn path(&self) -> PathBuf {
        self.dir.join(TABLE)
    }

    /// The kinds of `variants` (of `kernel` in `mode`, a `d`-member band)
    /// that the table lacks, once each.
    fn missing(&self, kernel: &str, mode: &str, d: usize, variants: &[Variant]) -> Vec<Variant> {
        let known = self.table.kernels.get(&(kernel.to_string(), mode.to_string()));
        let mut out: Vec<Variant> = variants
            .iter()
            .map(|v| kind(v, d))
            .filter(|k| known.is_none_or(|t| !t.rate.contains_key(&kind_label(k))))
            .collect();
        out.sort_by_key(|k| k.to_string());
        out.dedup();
        out
    }

    /// The estimates of `a`'s kernel in `mode` after estimating (at `sizes`)
    /// and appending the kinds of `variants` the table lacks.
    pub fn fill(
        &mut self,
        a: &Analysis,
        mode: Mode,
        sizes: &Sizes,
        variants: &[Variant],
    ) -> Result<&KernelRates, Error> {
        let key = (crate::collect::stem(&a.file), mode.to_string());
        let d = a.tile_dims();
        let missing = self.missing(&key.0, &key.1, d, variants);
        if !missing.is_empty() {
            let session =
                Session::new(a, mode, self.compiler.clone(), Policy::default()).map_err(|e| at(&key.0, sizes, e))?;
            let got = rates(&session, sizes, &missing, &self.mca);
            let new =
                KernelRates { dims: d, rate: missing.iter().map(|k| (kind_label(k), got.get(k).copied())).collect() };
            Table::append(&self.dir, &key.0, &key.1, &new, &self.cpu).map_err(Error::Usage)?;
            self.added += new.rate.len();
            let k = self.table.kernels.entry(key.clone()).or_default();
            k.dims = d;
            k.rate.extend(new.rate);
        }
        Ok(self.table.kernels.entry(key).or_insert_with(|| KernelRates { dims: d, rate: HashMap::new() }))
    }
}

/// Estimates the kinds of code of `records` that `filler`'s table lacks,
/// kernel and mode by kernel and mode, at the sizes of each one's first
/// instance (a rerun resumes; a kernel whose kinds are all there is not
/// even analysed). Returns how many kernels and modes it estimated;
/// `progress(done, of, kernel)` after each.
pub fn estimate_table<'r>(
    records: impl IntoIterator<Item = &'r Record>,
    kernels: &[PathBuf],
    filler: &mut Filler,
    mut progress: impl FnMut(usize, usize, &str),
) -> Result<usize, Error> {
    let mut todo: std::collections::BTreeMap<(String, String), (&str, Vec<Variant>)> = Default::default();
    for r in records {
        let e = todo.entry((r.kernel.clone(), r.mode.clone())).or_insert_with(|| (&r.sizes, Vec::new()));
        if r.sizes.as_str() < e.0 {
            e.0 = &r.sizes;
        }
        e.1.extend(r.tile.parse::<Variant>().ok());
    }
    // Kernels the table knows tell their depth: nothing to analyse when no
    // kind is missing.
    todo.retain(|(kernel, mode), (_, variants)| match filler.table.kernels.get(&(kernel.clone(), mode.clone())) {
        Some(k) => !filler.missing(kernel, mode, k.dims, variants).is_empty(),
        None => true,
    });
    let mut sources = Sources::new(kernels);
    let of = todo.len();
    for (n, ((kernel, mode), (sizes, variants))) in todo.iter().enumerate() {
        let (a, mode, sizes) = analysis_at(&mut sources, kernel, mode, sizes)?;
        filler.fill(a, mode, &sizes, variants)?;
        progress(n + 1, of, kernel);
    }
    Ok(of)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_the_kinds_rate_its_gain_over_the_original_and_its_share_of_the_best() {
        assert_eq!(columns(Some(8.0), Some(2.0), 16.0), [3.0, 2.0, 0.5]);
        // No estimate: the kind counts as the code as written.
        assert_eq!(columns(None, Some(2.0), 8.0), [1.0, 0.0, 0.25]);
        assert_eq!(columns(None, None, 0.0), [0.0, 0.0, 1.0]);
        assert_eq!(columns(Some(4.0), None, 4.0), [2.0, 0.0, 1.0]);
    }

    #[test]
    fn a_table_survives_its_file_and_gives_stored_rows_their_compiled_columns() {
        // Rows as loading gives them to a model of the set: the `bands` and `copy` columns derived.
        let width = crate::features::FeatureSet::Copy.len();
        let dir = tempfile::tempdir().unwrap();
        let rates = KernelRates {
            dims: 3,
            rate: [("untiled", Some(2.0)), ("tiled", Some(4.0)), (":4x4x1/pack", Some(16.0)), ("/pack", None)]
                .into_iter()
                .map(|(k, r)| (k.to_string(), r))
                .collect(),
        };
        Table::append(dir.path(), "matmul", "serial", &rates, "native").unwrap();
        Table::append(dir.path(), "other", "serial", &KernelRates { dims: 2, rate: HashMap::new() }, "native").unwrap();
        let table = Table::load(dir.path()).unwrap();
        assert_eq!(table.kernels.len(), 1, "a kernel without kinds writes no lines");
        let row = |tile: &str, features: usize| Record {
            tile: tile.into(),
            features: vec![0.5; features],
            ..crate::dataset::tests::rec(tile)
        };
        let mut rows = vec![row("64x32x8:4x4x1/pack", width), row("16", width), row("untiled", width)];
        rows.push(row("8x8x8/pack", width));
        rows.push(row("16", width - 1));
        table.attach(&mut rows);
        let tail = |r: &Record| r.features[width..].to_vec();
        assert_eq!(tail(&rows[0]), vec![4.0, 3.0, 1.0]);
        assert_eq!(tail(&rows[1]), vec![2.0, 1.0, 0.25]);
        assert_eq!(tail(&rows[2]), vec![1.0, 0.0, 0.125]);
        assert_eq!(tail(&rows[3]), vec![1.0, 0.0, 0.125], "a kind without an estimate is the original");
        assert_eq!(rows[4].features.len(), width - 1, "narrower rows stay as they are");
        std::fs::write(dir.path().join(TABLE), "kernel,mode,dims,kind,lanes_per_cycle,cpu\nmm,serial,x,a,1,n\n")
            .unwrap();
        assert!(Table::load(dir.path()).unwrap_err().ends_with("compiled.csv:2: bad dims"));
    }

    #[test]
    fn a_filler_estimates_only_the_kinds_its_table_lacks() {
        let dir = tempfile::tempdir().unwrap();
        let rates = KernelRates {
            dims: 3,
            rate: [("untiled", Some(2.0)), ("tiled", None)].into_iter().map(|(k, r)| (k.to_string(), r)).collect(),
        };
        Table::append(dir.path(), "mm", "serial", &rates, "native").unwrap();
        let mca = Mca { exe: "llvm-mca".into(), cpu: "native".into() };
        let filler = Filler::open(dir.path(), Compiler::from_env().unwrap(), mca, "native").unwrap();
        let v = |s: &str| s.parse::<Variant>().unwrap();
        let variants = [v("64x32x8"), v("8x8x8:4x1x1"), v("16x16x16:4x1x1"), v("untiled")];
        // Known kinds (an estimate or none) are not estimated again; a new
        // kind once, whatever its sizes.
        assert_eq!(filler.missing("mm", "serial", 3, &variants), vec![kind(&v("8x8x8:4x1x1"), 3)]);
        assert_eq!(filler.missing("mm", "parallel", 3, &variants[..1]), vec![kind(&v("64x32x8"), 3)]);
    }
}
