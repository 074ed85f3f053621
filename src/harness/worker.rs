//! Out-of-process measurement.
//!
//! The parent sends a [`Job`] (one instance, many compiled variants) as JSON
//! to `tss worker` on stdin; the worker allocates and initialises the arrays
//! once, then for each variant loads the object with `libloading`, runs it
//! and prints one JSON [`Report`] line. A variant that crashes or exceeds the
//! timeout kills only its worker: the parent records it and starts a new
//! worker at the next variant, so a sweep always finishes.
//!
//! Timing policy: every variant runs once on freshly initialised arrays (that
//! run's output is the checksum); it is repeated up to `reps` times only while
//! it stays within `near` of the best time seen for the instance. The model
//! needs precision near the minimum, not on tiles already far slower. The
//! session hands candidates over in bisection order
//! ([`super::session::probe_order`]) so that "best seen" is close to the
//! true best after a few runs.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::driver::{init_value, scalar_value};
use crate::frontend::Element;

/// Fills array `k` (with dimensions `extents`) for a run. Matrices are
/// symmetric and strictly diagonally dominant (off-diagonal rows sum below
/// 1, diagonal 2), hence also positive definite, as PolyBench's own
/// `init_array` makes them: factorisations (lu, cholesky, ludcmp,
/// gramschmidt) then stay finite. Other arrays take [`init_value`].
fn init_array<T: Elem>(k: usize, extents: &[i64], a: &mut [T]) {
    if let [rows, cols] = *extents {
        let cols = cols.max(1) as usize;
        for (i, x) in a.iter_mut().enumerate() {
            let (r, c) = (i / cols, i % cols);
            let (lo, hi) = (r.min(c), r.max(c));
            let v = init_value(k, lo * 31 + hi) / cols as f64;
            *x = T::from_f64(if r == c && (r as i64) < rows { 2.0 + v } else { v });
        }
    } else {
        a.iter_mut().enumerate().for_each(|(i, x)| *x = T::from_f64(init_value(k, i)));
    }
}

/// An array element type the worker can allocate, fill and checksum.
trait Elem: Copy + Default {
    fn from_f64(v: f64) -> Self;
    fn to_f64(self) -> f64;
}

impl Elem for f64 {
    fn from_f64(v: f64) -> Self {
        v
    }
    fn to_f64(self) -> f64 {
        self
    }
}

impl Elem for f32 {
    fn from_f64(v: f64) -> Self {
        v as f32
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
}
use super::{Mode, Status, Timing};

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Job {
    pub params: Vec<i64>,
    /// Per array, every dimension's extent.
    pub extents: Vec<Vec<i64>>,
    /// Arrays whose contents make the checksum.
    pub written: Vec<usize>,
    pub n_scalars: usize,
    pub libs: Vec<PathBuf>,
    pub reps: usize,
    pub near: f64,
    pub best: Option<f64>,
    /// Core to pin the worker to (serial mode).
    pub pin: Option<usize>,
    /// Element type of the arrays.
    #[serde(default)]
    pub element: Element,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    pub index: usize,
    pub times: Vec<f64>,
    /// `f64::to_bits` of the checksum: JSON has no NaN or infinity, and a
    /// kernel that overflows must still be measurable and compared exactly.
    pub checksum_bits: u64,
}

type KernelFn = unsafe extern "C" fn(*const i64, *const i64, *const *mut f64, *const f64);

/// Worker side: reads a job from `input`, reports to `output`.
pub fn serve(input: impl Read, output: impl Write) -> Result<(), String> {
    let job: Job = serde_json::from_reader(input).map_err(|e| format!("bad job: {e}"))?;
    if let Some(cpu) = job.pin {
        pin_to(cpu);
    }
    match job.element {
        Element::Double => run_all::<f64>(&job, output),
        Element::Float => run_all::<f32>(&job, output),
    }
}

/// Runs every object of `job` on arrays of `T`, reporting each.
fn run_all<T: Elem>(job: &Job, mut output: impl Write) -> Result<(), String> {
    let flat: Vec<i64> = job.extents.iter().flatten().copied().collect();
    let mut arrays: Vec<Vec<T>> =
        job.extents.iter().map(|e| vec![T::default(); e.iter().product::<i64>().max(1) as usize]).collect();
    let scalars: Vec<f64> = (0..job.n_scalars).map(scalar_value).collect();
    let mut best = job.best.unwrap_or(f64::INFINITY);
    // Objects stay loaded until the worker exits: unloading a kernel built
    // with -fopenmp can unload libgomp under its idle (still spinning) pool
    // threads, which then crash the worker at a later candidate.
    let mut loaded: Vec<libloading::Library> = Vec::new();
    for (index, lib) in job.libs.iter().enumerate() {
        // SAFETY: the object was compiled by tss from a driver exporting `tss_kernel`
        // with exactly this signature; its initialisers are the C runtime's.
        let lib = unsafe { libloading::Library::new(lib) }.map_err(|e| format!("{}: {e}", lib.display()))?;
        let f: libloading::Symbol<KernelFn> =
            unsafe { lib.get(b"tss_kernel\0") }.map_err(|e| format!("tss_kernel not found: {e}"))?;
        let mut times = Vec::new();
        let mut checksum = 0.0;
        while times.len() < job.reps.max(1) {
            for (k, a) in arrays.iter_mut().enumerate() {
                init_array(k, &job.extents[k], a);
            }
            // The driver casts each pointer back to the SCoP's element type.
            let ptrs: Vec<*mut f64> = arrays.iter_mut().map(|a| a.as_mut_ptr().cast::<f64>()).collect();
            let start = Instant::now();
            // SAFETY: arrays are sized from the extents the driver indexes with.
            unsafe { f(job.params.as_ptr(), flat.as_ptr(), ptrs.as_ptr(), scalars.as_ptr()) };
            let t = start.elapsed().as_secs_f64();
            if times.is_empty() {
                checksum = job.written.iter().map(|&k| weighted_sum(&arrays[k])).sum();
            }
            times.push(t);
            best = best.min(t);
            if t > job.near * best {
                break;
            }
        }
        loaded.push(lib);
        let report = Report { index, times, checksum_bits: checksum.to_bits() };
        let line = serde_json::to_string(&report).expect("finite times and integers serialise");
        writeln!(output, "{line}").and_then(|_| output.flush()).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Order-sensitive sum: a permuted or shifted result changes it.
fn weighted_sum<T: Elem>(a: &[T]) -> f64 {
    a.iter().enumerate().map(|(i, x)| x.to_f64() * (1 + i % 13) as f64).sum()
}

fn pin_to(cpu: usize) {
    // SAFETY: plain syscall on a zeroed cpu_set_t owned here.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
    }
}

/// Parent side: spawns workers and turns their reports into [`Timing`]s.
#[derive(Clone, Debug)]
pub struct Runner {
    /// The `tss` executable (its hidden `worker` subcommand).
    pub exe: PathBuf,
    pub timeout: Duration,
    pub mode: Mode,
}

impl Runner {
    /// `$TSS_WORKER`, else the running executable.
    pub fn new(mode: Mode, timeout: Duration) -> Result<Runner, String> {
        let exe = match std::env::var_os("TSS_WORKER") {
            Some(p) => PathBuf::from(p),
            None => std::env::current_exe().map_err(|e| format!("cannot locate the tss executable: {e}"))?,
        };
        Ok(Runner { exe, timeout, mode })
    }

    /// Serial workers are pinned to the last core; parallel ones get one
    /// OpenMP thread per core, bound.
    pub fn pin(&self) -> Option<usize> {
        (!self.mode.is_parallel()).then(|| crate::machine::cores().saturating_sub(1))
    }

    /// Runs every variant of `job`; `on(index, timing)` is called as each ends.
    pub fn run(&self, job: &Job, mut on: impl FnMut(usize, Timing)) -> Result<(), String> {
        let mut start = 0;
        let mut best = job.best;
        while start < job.libs.len() {
            let sub = Job { libs: job.libs[start..].to_vec(), best, ..job.clone() };
            let threads = if self.mode.is_parallel() { crate::machine::cores() } else { 1 };
            let mut child = Command::new(&self.exe)
                .arg("worker")
                .env("OMP_NUM_THREADS", threads.to_string())
                .env("OMP_PROC_BIND", "close")
                .env("OMP_PLACES", "cores")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .map_err(|e| format!("cannot start worker {}: {e}", self.exe.display()))?;
            let mut stdin = child.stdin.take().expect("piped");
            serde_json::to_writer(&mut stdin, &sub).map_err(|e| e.to_string())?;
            drop(stdin);
            let (tx, rx) = mpsc::channel();
            let out = child.stdout.take().expect("piped");
            std::thread::spawn(move || {
                for line in BufReader::new(out).lines().map_while(Result::ok) {
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
            let mut err_pipe = child.stderr.take().expect("piped");
            let err_thread = std::thread::spawn(move || {
                let mut s = String::new();
                let _ = err_pipe.read_to_string(&mut s);
                s
            });
            let mut next = 0; // index in `sub` of the variant in flight
            loop {
                match rx.recv_timeout(self.timeout) {
                    Ok(line) => {
                        let r: Report =
                            serde_json::from_str(&line).map_err(|e| format!("worker said '{line}': {e}"))?;
                        let t = Timing {
                            status: Status::Ok,
                            times: r.times,
                            checksum: Some(f64::from_bits(r.checksum_bits)),
                            detail: String::new(),
                        };
                        if let Some(m) = t.min() {
                            best = Some(best.map_or(m, |b: f64| b.min(m)));
                        }
                        on(start + r.index, t);
                        next = r.index + 1;
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        let _ = child.kill();
                        let _ = child.wait();
                        on(
                            start + next,
                            Timing::failed(Status::Timeout, format!("no result after {:?}", self.timeout)),
                        );
                        next += 1;
                        break;
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        let status = child.wait().map_err(|e| e.to_string())?;
                        if next < sub.libs.len() {
                            let err = err_thread.join().unwrap_or_default();
                            let last = err.lines().last().unwrap_or("").to_string();
                            on(start + next, Timing::failed(Status::Crash, format!("worker {status}; {last}")));
                            next += 1;
                        }
                        break;
                    }
                }
            }
            start += next;
        }
        Ok(())
    }
}
