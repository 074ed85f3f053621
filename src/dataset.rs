//! The measurement dataset: one CSV row per (kernel, mode, instance, variant).
//!
//! Schema (columns found by name when reading, so files stay readable as
//! columns are added):
//!
//! | column | meaning |
//! |---|---|
//! | `kernel` | file stem of the kernel (`matmul`) |
//! | `mode` | `serial` or `parallel` |
//! | `instance` | `SEED:K`, the K-th instance drawn with that seed |
//! | `sizes` | parameter values, `ni=1500,nj=1300` |
//! | `ps1..ps3` | extents of the three feature loops (features PS1..PS3) |
//! | `tile` | `untiled` or sizes per band member, `32x32x32` |
//! | `ts1..ts3` | tile sizes of the feature loops (1 for untiled) |
//! | `status` | `ok`, `wrong` (checksum differs from untiled), `crash`, `timeout`, `compile-error` |
//! | `time_min`, `time_median` | seconds (empty unless ok or wrong) |
//! | `time_spread` | (max - min) / median over the runs |
//! | `reps` | timed runs |
//! | `checksum` | weighted sum of the written arrays |
//! | `baseline_time` | median of the instance's untiled run(s) |
//! | `f_<NAME>` | the `scop` feature vector (its first 29 are the `paper` set, its first 37 `extended`, its first 40 `registers`); files written before a set existed stop at the narrower one until `tss refeature` recomputes them |
//! | `cpu`, `l1d`, `l2`, `line` | machine: CPU model and cache bytes |
//! | `cc`, `cflags` | first line of `cc --version`, flags |
//! | `unix_time` | when the row was measured |
//!
//! Appending is crash-safe: each row is one `write` of a whole line followed
//! by `fsync`; on reopening, a torn last line (a kill mid-write) is cut off,
//! so a resumed collection neither loses finished rows nor duplicates them.

use std::collections::{BTreeMap, HashMap};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::features::FeatureSet;
use crate::harness::{Status, UNTILED};
use crate::machine::Descriptor;

const FIXED: [&str; 18] = [
    "kernel",
    "mode",
    "instance",
    "sizes",
    "ps1",
    "ps2",
    "ps3",
    "tile",
    "ts1",
    "ts2",
    "ts3",
    "status",
    "time_min",
    "time_median",
    "time_spread",
    "reps",
    "checksum",
    "baseline_time",
];
const META: [&str; 7] = ["cpu", "l1d", "l2", "line", "cc", "cflags", "unix_time"];

/// Where and with what a row was measured.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Meta {
    pub cpu: String,
    pub l1d: u64,
    pub l2: u64,
    pub line: u64,
    pub cc: String,
    pub cflags: String,
    /// The CPU's family and model (`f25m17`) as the file's directory records
    /// them in `machine.json`, empty where it does not: no CSV column holds
    /// them, and two CPUs can share every column that is stored (the Zen 4
    /// and the Zen 5 here are both `AMD EPYC` with 1 MiB of L2). Set by
    /// [`load_all`], which pools files.
    pub cpu_id: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub kernel: String,
    pub mode: String,
    pub instance: String,
    pub sizes: String,
    pub ps: [i64; 3],
    pub tile: String,
    pub ts: [f64; 3],
    pub status: Status,
    pub time_min: Option<f64>,
    pub time_median: Option<f64>,
    pub time_spread: Option<f64>,
    pub reps: usize,
    pub checksum: Option<f64>,
    pub baseline_time: Option<f64>,
    /// The `extended` feature vector.
    pub features: Vec<f64>,
    pub meta: Meta,
    pub unix_time: u64,
}

impl Record {
    /// Identity of a measurement: what a resumed sweep must not repeat.
    pub fn key(&self) -> (String, String, String, String) {
        (self.kernel.clone(), self.mode.clone(), self.sizes.clone(), self.tile.clone())
    }

    /// The instance a row belongs to, `kernel|sizes|platform`: rows of one
    /// instance share the fastest time that relative targets and TN divide
    /// by, so the same sizes timed on two platforms, or serial and in
    /// parallel, are two instances.
    pub fn instance_key(&self) -> String {
        let m = &self.meta;
        format!("{}|{}|{};{};{};{};{};{}", self.kernel, self.sizes, m.cpu, m.cpu_id, m.l2, m.cc, m.cflags, self.mode)
    }

    /// Whether the row stores every column of `set` (rows written before a
    /// wider set existed lack its last ones until `tss refeature`).
    pub fn has_features(&self, set: FeatureSet) -> bool {
        self.features.len() >= set.len()
    }

    /// Whether the row is a candidate a model of `set` ranks: timed
    /// correctly, with `set`'s features, unrolled configs (`64:4x1x4`) only
    /// when `set` tells them from plain tiles (else they would repeat a plain
    /// tile's features with another time), and the untiled code only when
    /// `set` describes it. Training, the baselines and evaluation all choose
    /// among these rows, so their normalised times share one reference.
    pub fn is_candidate(&self, set: FeatureSet) -> bool {
        self.status == Status::Ok
            && self.time_median.is_some()
            && self.has_features(set)
            && (set.describes_unrolling() || !self.tile.contains(':'))
            && (set.describes_vectors() || !self.tile.contains(crate::config::VECTOR))
            && (set.describes_untiled() || self.tile != UNTILED)
    }

    /// The feature vector of `set` (a prefix of the stored extended one).
    pub fn features_of(&self, set: FeatureSet) -> &[f64] {
        &self.features[..set.len().min(self.features.len())]
    }
}

/// The rows a model of `set` ranks ([`Record::is_candidate`]), grouped by
/// instance ([`Record::instance_key`]), in key order: what the untiled gate
/// and the blended ranker fit on, each group sharing one fastest time.
pub fn candidates_by_instance(records: &[Record], set: FeatureSet) -> BTreeMap<String, Vec<&Record>> {
    let mut groups: BTreeMap<String, Vec<&Record>> = BTreeMap::new();
    for r in records.iter().filter(|r| r.is_candidate(set)) {
        groups.entry(r.instance_key()).or_default().push(r);
    }
    groups
}

/// The feature set rows store: the widest. Files written before a set
/// existed lack its columns, and their rows serve the narrower sets only.
pub const STORED: FeatureSet = FeatureSet::Source;

/// Whether `path` holds rows under another version's header (fewer feature
/// columns): [`Appender::open`] refuses such a file until `tss refeature`
/// widens it. A missing or empty file is not stale.
pub fn stale_header(path: &Path) -> Result<bool, String> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    // Only the header line: the rows can be many megabytes.
    let mut first = Vec::new();
    std::io::BufReader::new(file).read_until(b'\n', &mut first).map_err(|e| format!("{}: {e}", path.display()))?;
    let first = first.strip_suffix(b"\n").unwrap_or(&first);
    Ok(!first.is_empty() && !is_current_header(first))
}

/// Whether a file's first line (without its newline) is this version's header.
fn is_current_header(first: &[u8]) -> bool {
    first == csv_line(&header()).strip_suffix(b"\n").unwrap_or(&[])
}

pub fn header() -> Vec<String> {
    let feats = STORED.names().into_iter().map(|n| format!("f_{n}"));
    FIXED.iter().map(|s| s.to_string()).chain(feats).chain(META.iter().map(|s| s.to_string())).collect()
}

fn opt(v: Option<f64>) -> String {
    v.map_or(String::new(), |x| format!("{x:e}"))
}

fn fields(r: &Record) -> Vec<String> {
    let mut f = vec![
        r.kernel.clone(),
        r.mode.clone(),
        r.instance.clone(),
        r.sizes.clone(),
        r.ps[0].to_string(),
        r.ps[1].to_string(),
        r.ps[2].to_string(),
        r.tile.clone(),
        r.ts[0].to_string(),
        r.ts[1].to_string(),
        r.ts[2].to_string(),
        r.status.to_string(),
        opt(r.time_min),
        opt(r.time_median),
        opt(r.time_spread),
        r.reps.to_string(),
        opt(r.checksum),
        opt(r.baseline_time),
    ];
    // Rows with a narrower feature set leave the wider columns empty.
    f.extend((0..STORED.len()).map(|k| r.features.get(k).map_or(String::new(), |x| format!("{x}"))));
    let m = &r.meta;
    f.extend([
        m.cpu.clone(),
        m.l1d.to_string(),
        m.l2.to_string(),
        m.line.to_string(),
        m.cc.clone(),
        m.cflags.clone(),
        r.unix_time.to_string(),
    ]);
    f
}

fn csv_line(fields: &[String]) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(fields).expect("writing to memory");
    w.into_inner().expect("flushing to memory")
}

/// Reads every complete row of a dataset file.
pub fn load(path: &Path) -> Result<Vec<Record>, String> {
    let text = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(path, &text[..complete_len(&text)])
}

/// Reads several files (e.g. a glob's matches) into one list, each row
/// carrying its directory's CPU family and model ([`Meta::cpu_id`]), so that
/// the same sizes timed on two CPUs of one name stay two instances, and the
/// `compiled` columns its directory's compiler estimates give it
/// ([`crate::compiled::Table`]). For reading only: [`rewrite`] stores
/// [`STORED`]'s columns.
pub fn load_all(paths: &[PathBuf]) -> Result<Vec<Record>, String> {
    load_for(paths, STORED, &[])
}

/// [`load_all`] for a model of `set`: where `set` has columns no file
/// stores ([`FeatureSet::Bands`], [`FeatureSet::Copy`]), they are computed from the rows'
/// kernels ([`crate::refeature::derive`]), found by file stem among
/// `kernels` and, before them, the `.c` files under a `corpus/` directory
/// beside the data file, above it or in the current directory (the
/// repository's own). Rows of other kernels stay narrower, with a warning.
pub fn load_for(paths: &[PathBuf], set: FeatureSet, kernels: &[PathBuf]) -> Result<Vec<Record>, String> {
    load_where(paths, set, kernels, |_| true)
}

/// [`load_for`] of the rows `keep` accepts: the columns loading derives
/// cost time per instance, paid for those rows only.
pub fn load_where(
    paths: &[PathBuf],
    set: FeatureSet,
    kernels: &[PathBuf],
    keep: impl Fn(&Record) -> bool,
) -> Result<Vec<Record>, String> {
    let derives = set > STORED;
    let mut files: Vec<PathBuf> =
        if derives { paths.iter().flat_map(|p| corpus_above(p)).collect() } else { Vec::new() };
    files.sort();
    files.dedup();
    files.extend(kernels.iter().cloned());
    let mut sources = crate::refeature::Sources::new(&files);
    let mut out = Vec::new();
    // Files of one directory share its table: read once.
    let mut tables: HashMap<&Path, crate::compiled::Table> = HashMap::new();
    for p in paths {
        let id = machine_of(p)?.and_then(|d| d.cpu_id()).unwrap_or_default();
        let mut rows = load(p)?;
        for r in &mut rows {
            r.meta.cpu_id.clone_from(&id);
        }
        rows.retain(&keep);
        if derives {
            let (left, kernels) = crate::refeature::derive(p, &mut rows, &mut sources, set)?;
            if left > 0 {
                eprintln!(
                    "tss: warning: {}: {left} rows of {kernels} kernels whose source is not among --kernels \
                     lack the {set} set's columns: the model leaves them out",
                    p.display()
                );
            }
        }
        let dir = dir_of(p);
        if !tables.contains_key(dir) {
            tables.insert(dir, crate::compiled::Table::load(dir)?);
        }
        tables[dir].attach(&mut rows);
        out.extend(rows);
    }
    Ok(out)
}

/// The kernels of the first `corpus/` directory beside `path` or above it,
/// else in the current directory (a data file kept elsewhere, read from the
/// repository), each `.c` file one level or two below it
/// (`corpus/blas/gemm-ikj.c`).
fn corpus_above(path: &Path) -> Vec<PathBuf> {
    let places = dir_of(path).ancestors().chain([Path::new("")]);
    let Some(corpus) = places.map(|d| d.join("corpus")).find(|c| c.is_dir()) else {
        return Vec::new();
    };
    let entries = |d: &Path| -> Vec<PathBuf> {
        std::fs::read_dir(d).map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect()).unwrap_or_default()
    };
    let mut out: Vec<PathBuf> =
        entries(&corpus).into_iter().flat_map(|p| if p.is_dir() { entries(&p) } else { vec![p] }).collect();
    out.retain(|f| f.extension().is_some_and(|e| e == "c"));
    out
}

/// Length of `text` up to its last newline: a torn last line is not a row.
fn complete_len(text: &[u8]) -> usize {
    text.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1)
}

fn parse(path: &Path, text: &[u8]) -> Result<Vec<Record>, String> {
    let mut rd = csv::ReaderBuilder::new().has_headers(true).from_reader(text);
    let head = rd.headers().map_err(|e| format!("{}: {e}", path.display()))?.clone();
    let col = |name: &str| head.iter().position(|h| h == name);
    let need =
        |name: &str| col(name).ok_or_else(|| format!("{}: no column '{name}' (not a tss dataset?)", path.display()));
    let idx: Vec<usize> = FIXED.iter().map(|n| need(n)).collect::<Result<_, _>>()?;
    let feat: Vec<Option<usize>> = STORED.names().iter().map(|n| col(&format!("f_{n}"))).collect();
    let meta: Vec<Option<usize>> = META.iter().map(|n| col(n)).collect();
    let mut out = Vec::new();
    for (row, rec) in rd.records().enumerate() {
        let line = row + 2;
        let rec = rec.map_err(|e| format!("{}:{line}: {e}", path.display()))?;
        let get = |k: usize| rec.get(idx[k]).unwrap_or("");
        let num = |k: usize| -> Result<Option<f64>, String> {
            let s = get(k);
            if s.is_empty() {
                return Ok(None);
            }
            s.parse::<f64>()
                .map(Some)
                .map_err(|_| format!("{}:{line}: {} '{s}' is not a number", path.display(), FIXED[k]))
        };
        let int = |k: usize| -> Result<i64, String> {
            num(k)?.map(|v| v as i64).ok_or_else(|| format!("{}:{line}: empty {}", path.display(), FIXED[k]))
        };
        let status: Status = get(11).parse().map_err(|e| format!("{}:{line}: {e}", path.display()))?;
        let features = feat
            .iter()
            .map_while(|c| c.and_then(|c| rec.get(c)).filter(|s| !s.is_empty()))
            .map(|s| s.parse::<f64>().map_err(|_| format!("{}:{line}: bad feature '{s}'", path.display())))
            .collect::<Result<Vec<_>, _>>()?;
        let m = |k: usize| meta[k].and_then(|c| rec.get(c)).unwrap_or("").to_string();
        out.push(Record {
            kernel: get(0).into(),
            mode: get(1).into(),
            instance: get(2).into(),
            sizes: get(3).into(),
            ps: [int(4)?, int(5)?, int(6)?],
            tile: get(7).into(),
            ts: [num(8)?.unwrap_or(1.0), num(9)?.unwrap_or(1.0), num(10)?.unwrap_or(1.0)],
            status,
            time_min: num(12)?,
            time_median: num(13)?,
            time_spread: num(14)?,
            reps: int(15)? as usize,
            checksum: num(16)?,
            baseline_time: num(17)?,
            features,
            meta: Meta {
                cpu: m(0),
                l1d: m(1).parse().unwrap_or(0),
                l2: m(2).parse().unwrap_or(0),
                line: m(3).parse().unwrap_or(0),
                cc: m(4),
                cflags: m(5),
                cpu_id: String::new(),
            },
            unix_time: m(6).parse().unwrap_or(0),
        });
    }
    Ok(out)
}

/// An open dataset file that rows are appended to.
pub struct Appender {
    file: File,
    pub path: PathBuf,
}

impl Appender {
    /// Opens (creating with a header) `path`; returns the rows already there.
    pub fn open(path: &Path) -> Result<(Appender, Vec<Record>), String> {
        let err = |e: std::io::Error| format!("{}: {e}", path.display());
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(err)?;
        }
        let mut file = OpenOptions::new().read(true).create(true).append(true).open(path).map_err(err)?;
        let mut text = Vec::new();
        file.read_to_end(&mut text).map_err(err)?;
        let keep = complete_len(&text);
        if keep < text.len() {
            // A kill in mid-write left half a row: cut it off.
            file.set_len(keep as u64).map_err(err)?;
            file.seek(SeekFrom::End(0)).map_err(err)?;
        }
        let rows = if keep == 0 {
            file.write_all(&csv_line(&header())).map_err(err)?;
            file.sync_data().map_err(err)?;
            Vec::new()
        } else {
            let first = text[..keep].split(|&b| b == b'\n').next().unwrap_or(&[]);
            if !is_current_header(first) {
                return Err(format!(
                    "{}: its columns differ from this tss version's; run `tss refeature` on it first, or write to a new file",
                    path.display()
                ));
            }
            parse(path, &text[..keep])?
        };
        Ok((Appender { file, path: path.into() }, rows))
    }

    /// Appends one row durably (one write, then fsync).
    pub fn append(&mut self, r: &Record) -> Result<(), String> {
        let line = csv_line(&fields(r));
        self.file
            .write_all(&line)
            .and_then(|_| self.file.sync_data())
            .map_err(|e| format!("{}: {e}", self.path.display()))
    }
}

/// Replaces `path` with `records` under this version's header: written
/// beside it, synced, then renamed over it, so a kill leaves the old file
/// or the new one, never half of either.
pub fn rewrite(path: &Path, records: &[Record]) -> Result<(), String> {
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    let tmp = path.with_extension("csv.tmp");
    let mut text = csv_line(&header());
    for r in records {
        text.extend(csv_line(&fields(r)));
    }
    let mut f = File::create(&tmp).map_err(err)?;
    f.write_all(&text).and_then(|_| f.sync_all()).map_err(err)?;
    std::fs::rename(&tmp, path).map_err(err)
}

/// The descriptor file of the dataset directory that holds `path`: every
/// CSV in a directory was measured on the machine it describes.
pub fn machine_path(path: &Path) -> PathBuf {
    dir_of(path).join("machine.json")
}

/// The directory that holds data file `path` (`.` for a bare file name).
pub fn dir_of(path: &Path) -> &Path {
    path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// The distinct machines recorded beside `paths`.
pub fn machines_of(paths: &[PathBuf]) -> Result<Vec<Descriptor>, String> {
    let mut out: Vec<Descriptor> = Vec::new();
    for p in paths {
        if let Some(d) = machine_of(p)?
            && !out.contains(&d)
        {
            out.push(d);
        }
    }
    Ok(out)
}

/// How many kernels have rows of machine `m` among `records` (matched by
/// CPU, family and model, L2, compiler and flags: the columns rows carry).
pub fn kernels_on(records: &[Record], m: &Descriptor) -> usize {
    let id = m.cpu_id().unwrap_or_default();
    let on_m = |r: &&Record| {
        let k = &r.meta;
        (&k.cpu, &k.cpu_id, k.l2, &k.cc, &k.cflags) == (&m.cpu, &id, m.l2, &m.cc, &m.cflags)
    };
    records.iter().filter(on_m).map(|r| r.kernel.as_str()).collect::<std::collections::BTreeSet<_>>().len()
}

/// The machine that `path`'s directory belongs to, if it records one.
pub fn machine_of(path: &Path) -> Result<Option<Descriptor>, String> {
    machine_in(dir_of(path))
}

/// The machine that data directory `dir` records in its `machine.json`, if any.
pub fn machine_in(dir: &Path) -> Result<Option<Descriptor>, String> {
    let m = dir.join("machine.json");
    match std::fs::read_to_string(&m) {
        Ok(text) => serde_json::from_str(&text).map(Some).map_err(|e| format!("{}: {e}", m.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: {e}", m.display())),
    }
}

/// The data directory under `root` (the repository) for rows measured on
/// `here`: [`Descriptor::data_dir`], unless another machine's rows already
/// hold it (its `machine.json` differs: a CPU of the same name, ISA and L2,
/// or another harness), then [`Descriptor::data_dir_with_id`].
pub fn data_dir_under(here: &Descriptor, root: &Path) -> String {
    let first = here.data_dir();
    match machine_in(&root.join(&first)) {
        Ok(Some(theirs)) if !theirs.timing_differences(here).is_empty() => here.data_dir_with_id(),
        _ => first,
    }
}

/// Checks that rows measured on `here` (carrying `meta`) may join `path`,
/// whose rows so far are `rows`: the directory's `machine.json` and every
/// row must agree with this machine, or the error names both. Records
/// `here` as the directory's machine when it has none yet.
pub fn claim(path: &Path, rows: &[Record], here: &Descriptor, meta: &Meta) -> Result<(), String> {
    let refuse = |theirs: String, diffs: Vec<String>| {
        Err(format!(
            "{}: measured on {theirs}, but this machine is {} (differs in {}); timings of two machines never \
             share a file: collect into another directory, e.g. {}",
            path.display(),
            here.summary(),
            diffs.join(", "),
            data_dir_under(here, Path::new("."))
        ))
    };
    let recorded = machine_of(path)?;
    if let Some(theirs) = &recorded {
        if (theirs.harness, theirs.sizes) != (here.harness, here.sizes) {
            return Err(format!(
                "{}: timed by harness version {} with {} sizes, but this run times with version {} and {} sizes \
                 (the driver around each kernel differs, and with it the timings): collect into a new file, e.g. \
                 in {}",
                path.display(),
                theirs.harness,
                theirs.sizes,
                here.harness,
                here.sizes,
                data_dir_under(here, Path::new("."))
            ));
        }
        let diffs = theirs.differences(here);
        if !diffs.is_empty() {
            return refuse(theirs.summary(), diffs);
        }
    }
    if let Some(r) = rows.iter().find(|r| r.meta != *meta) {
        let m = &r.meta;
        let pairs = [
            ("cpu", m.cpu.clone(), meta.cpu.clone()),
            ("L1d", m.l1d.to_string(), meta.l1d.to_string()),
            ("L2", m.l2.to_string(), meta.l2.to_string()),
            ("line", m.line.to_string(), meta.line.to_string()),
            ("compiler", m.cc.clone(), meta.cc.clone()),
            ("flags", m.cflags.clone(), meta.cflags.clone()),
        ];
        let diffs = pairs.into_iter().filter(|(_, a, b)| a != b).map(|(n, a, b)| format!("{n} {a} vs {b}")).collect();
        return refuse(format!("{} ({} {}, row {} {})", m.cpu, m.cc, m.cflags, r.instance, r.tile), diffs);
    }
    if recorded.is_none() {
        let m = machine_path(path);
        let text = serde_json::to_string_pretty(here).expect("a descriptor serialises");
        std::fs::write(&m, text + "\n").map_err(|e| format!("{}: {e}", m.display()))?;
    }
    Ok(())
}

/// The one machine that `paths` (holding `rows`) were measured on: their
/// directories' descriptors and every row's machine columns must agree, so
/// that a model never learns from two machines' timings at once, unless
/// `pool` says it should (`tss train --pool-machines`): then there is no
/// one machine to name.
pub fn one_machine(paths: &[PathBuf], rows: &[Record], pool: bool) -> Result<Option<Descriptor>, String> {
    if pool {
        return Ok(None);
    }
    let mut found: Option<(&PathBuf, Descriptor)> = None;
    for p in paths {
        let Some(d) = machine_of(p)? else { continue };
        if let Some((q, first)) = &found {
            let diffs = first.timing_differences(&d);
            if !diffs.is_empty() {
                return Err(format!(
                    "{} and {} were measured on different machines (differs in {}); use one machine's files, or --pool-machines to train on several",
                    q.display(),
                    p.display(),
                    diffs.join(", ")
                ));
            }
        } else {
            found = Some((p, d));
        }
    }
    if let (Some(a), Some(b)) = (rows.first(), rows.iter().find(|r| r.meta != rows[0].meta)) {
        return Err(format!(
            "the rows mix machines: '{}' ({} {}) and '{}' ({} {}); use one machine's files, or --pool-machines to train on several",
            a.meta.cpu, a.meta.cc, a.meta.cflags, b.meta.cpu, b.meta.cc, b.meta.cflags
        ));
    }
    Ok(found.map(|(_, d)| d))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A timed row of `tile` with made-up metadata (other modules' tests
    /// start from it too).
    pub(crate) fn rec(tile: &str) -> Record {
        Record {
            kernel: "matmul".into(),
            mode: "serial".into(),
            instance: "1:0".into(),
            sizes: "ni=10,nj=20".into(),
            ps: [10, 20, 30],
            tile: tile.into(),
            ts: [8.0, 8.0, 8.0],
            status: Status::Ok,
            time_min: Some(0.5),
            time_median: Some(0.625),
            time_spread: None,
            reps: 2,
            checksum: Some(1.25e9),
            baseline_time: Some(2.0),
            features: (0..FeatureSet::Extended.len()).map(|k| k as f64 * 0.5).collect(),
            meta: Meta {
                cpu: "CPU, \"x\"".into(),
                l1d: 1,
                l2: 2,
                line: 64,
                cc: "cc 12".into(),
                cflags: "-O3".into(),
                cpu_id: String::new(),
            },
            unix_time: 7,
        }
    }

    #[test]
    fn round_trip_and_torn_line() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("d.csv");
        let (mut a, rows) = Appender::open(&p).unwrap();
        assert!(rows.is_empty());
        a.append(&rec("8x8x8")).unwrap();
        a.append(&rec("16x16x16")).unwrap();
        drop(a);
        // Simulate a kill in the middle of a third row.
        let mut f = OpenOptions::new().append(true).open(&p).unwrap();
        f.write_all(b"matmul,serial,1:0,ni=").unwrap();
        drop(f);
        let (mut a, rows) = Appender::open(&p).unwrap();
        assert_eq!(rows, vec![rec("8x8x8"), rec("16x16x16")]);
        a.append(&rec("24x24x24")).unwrap();
        assert_eq!(load(&p).unwrap().len(), 3);
    }

    #[test]
    fn foreign_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.csv");
        std::fs::write(&p, "a,b\n1,2\n").unwrap();
        assert!(Appender::open(&p).err().unwrap().contains("columns differ"));
        assert!(load(&p).unwrap_err().contains("no column 'kernel'"));
        // `tss adapt` widens a cache whose header is another version's.
        assert!(stale_header(&p).unwrap());
        let fresh = dir.path().join("fresh.csv");
        assert!(!stale_header(&fresh).unwrap(), "missing: nothing to widen");
        Appender::open(&fresh).unwrap();
        assert!(!stale_header(&fresh).unwrap(), "this version's header");
    }

    #[test]
    fn a_directory_belongs_to_one_machine() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("serial.csv");
        let r = rec("8x8x8");
        let mut here = Descriptor::detect("cc 12", "-O3");
        (here.cpu, here.l1d, here.l2, here.line) = (r.meta.cpu.clone(), 1, 2, 64);
        claim(&p, std::slice::from_ref(&r), &here, &r.meta).unwrap();
        assert_eq!(machine_of(&p).unwrap(), Some(here.clone()), "the first claim records the machine");
        claim(&dir.path().join("parallel.csv"), &[], &here, &r.meta).unwrap();
        let mut other = here.clone();
        other.isa = "something-else".into();
        let e = claim(&p, &[], &other, &r.meta).unwrap_err();
        assert!(e.contains(&format!("isa {} vs something-else", here.isa)) && e.contains("collect into"), "{e}");
        // Rows timed by an older harness are refused, and files written
        // before the version was recorded count as version 1.
        let older = Descriptor { harness: crate::machine::HARNESS - 1, ..here.clone() };
        let e = claim(&p, &[], &older, &r.meta).unwrap_err();
        assert!(e.contains("harness version") && e.contains("new file"), "{e}");
        let text = std::fs::read_to_string(machine_path(&p)).unwrap().replace("\"harness\"", "\"unknown\"");
        std::fs::write(machine_path(&p), text).unwrap();
        assert_eq!(machine_of(&p).unwrap().unwrap().harness, 1);
        let newer = tempfile::tempdir().unwrap();
        claim(&newer.path().join("serial.csv"), &[], &here, &r.meta).unwrap();
        let paths = [p.clone(), newer.path().join("serial.csv")];
        assert!(one_machine(&paths, &[], false).unwrap_err().contains("harness version 1 vs"));
        assert_eq!(one_machine(&paths, &[], true), Ok(None), "pooled files name no one machine");
        // Rows of another compiler are refused even where no machine.json says so.
        let fresh = tempfile::tempdir().unwrap();
        let meta = Meta { cc: "clang 19".into(), ..r.meta.clone() };
        let e = claim(&fresh.path().join("x.csv"), &[r], &here, &meta).unwrap_err();
        assert!(e.contains("compiler cc 12 vs clang 19"), "{e}");
    }

    #[test]
    fn the_same_sizes_on_two_cpus_of_one_name_are_two_instances() {
        // The Zen 4's and the Zen 5's rows agree in every stored column; only
        // their directories' machine.json tell them apart.
        let r = rec("8x8x8");
        let mut zen5 = Descriptor::detect("cc 12", "-O3 -march=native");
        (zen5.cpu, zen5.family, zen5.model) = (r.meta.cpu.clone(), Some(26), Some(2));
        let zen4 = Descriptor { family: Some(25), model: Some(17), ..zen5.clone() };
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let mut paths = Vec::new();
        for (dir, d) in [(&a, &zen5), (&b, &zen4)] {
            let p = dir.path().join("corpus-serial-train.csv");
            claim(&p, &[], d, &r.meta).unwrap();
            let (mut out, _) = Appender::open(&p).unwrap();
            out.append(&r).unwrap();
            out.append(&rec("16x16x16")).unwrap();
            paths.push(p);
        }
        let rows = load_all(&paths).unwrap();
        let keys: std::collections::BTreeSet<String> = rows.iter().map(Record::instance_key).collect();
        assert_eq!((rows.len(), keys.len()), (4, 2), "{keys:?}");
        assert_eq!(rows[0].meta.cpu_id, "f26m2");
        assert_eq!(rows[2].meta.cpu_id, "f25m17");
        // One file alone, as collection reads it, keeps the stored columns.
        assert_eq!(load(&paths[0]).unwrap()[0].meta, r.meta);
    }

    #[test]
    fn a_cpu_of_the_same_name_is_given_its_own_directory() {
        let root = tempfile::tempdir().unwrap();
        let r = rec("8x8x8");
        let mut zen5 = Descriptor::detect("cc 12", "-O3 -march=native");
        (zen5.cpu, zen5.family, zen5.model) = (r.meta.cpu.clone(), Some(26), Some(2));
        let zen4 = Descriptor { family: Some(25), model: Some(17), ..zen5.clone() };
        assert_eq!(data_dir_under(&zen5, root.path()), zen5.data_dir(), "no rows yet: the first choice");
        let file = root.path().join(zen5.data_dir()).join("corpus-serial-test.csv");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        claim(&file, &[], &zen5, &r.meta).unwrap();
        assert_eq!(data_dir_under(&zen5, root.path()), zen5.data_dir(), "its own rows");
        let other = data_dir_under(&zen4, root.path());
        assert_eq!(other, zen4.data_dir_with_id());
        assert!(other.ends_with("-f25m17/"), "{other}");
    }

    #[test]
    fn the_same_sizes_on_two_platforms_are_two_instances() {
        use crate::model::ValBy;
        let gcc = rec("8x8x8");
        let clang = Record { meta: Meta { cc: "clang 19".into(), ..gcc.meta.clone() }, ..gcc.clone() };
        let (a, b) = (gcc.instance_key(), clang.instance_key());
        assert_ne!(a, b);
        assert_eq!(gcc.instance_key(), rec("16x16x16").instance_key(), "one instance, two configs");
        // A validation split by instance keeps both platforms' rows on one side.
        assert_eq!(ValBy::Instance.key(&a), "matmul|ni=10,nj=20");
        assert_eq!(ValBy::Instance.key(&a), ValBy::Instance.key(&b));
        assert_eq!(ValBy::Kernel.key(&b), "matmul");
        assert_eq!(ValBy::Kernel.key("plain"), "plain");
    }
}
