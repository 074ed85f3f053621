//! What the compiler makes of each kind of code, without running it.
//!
//! On kernels no model saw, the first pick misses the kind of code (loop
//! order, packing, register and vector tiles) more than the tile sizes
//! (README, "Kernels no model saw"): whether and how well gcc vectorises a
//! kind depends on the kernel's text, which the source features do not
//! carry. So tss can ask the compiler. Each kind is written with tile
//! [`TILE`], compiled to assembly with the user's `$CC $CFLAGS`, and LLVM's
//! static throughput model, `llvm-mca`, estimates the cycles of one
//! iteration of its hottest innermost loop: the one computing the most
//! floating-point lanes. The model's ranking then decides among the kinds
//! the compiler does not find far slower than the best ([`first_by_kind`]):
//! the estimate ignores the caches, so it vetoes blunders (a kind gcc
//! leaves scalar where another vectorises) rather than ranking.

use std::collections::HashMap;
use std::hash::Hash;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::Error;
use crate::dataset::Record;
use crate::gate::InstanceKey;
use crate::harness::compile::Compiler;
use crate::harness::session::{Policy, Session};
use crate::harness::{Mode, Variant};
use crate::instance::Sizes;
use crate::refeature::Sources;

mod table;
pub use table::{Filler, KernelRates, TABLE, Table, columns, estimate_table};

/// The tile size every kind is compiled at: the hot loop's code barely
/// depends on it once it exceeds the register tile.
pub const TILE: usize = 64;

/// A kind of code whose hottest loop the compiler estimates below this share
/// of the best kind's lanes per cycle is not taken first. Chosen on the Zen
/// 4's leave-family-out reports and its test rows of kernels seen, never on
/// `corpus/fresh` (README, "Asking the compiler").
pub const FLOOR: f64 = 0.6;

/// Floating-point lanes an AT&T instruction computes (an FMA counts twice);
/// 0 for anything else.
pub fn lanes(op: &str, operands: &str) -> u32 {
    let base = op.strip_prefix('v').unwrap_or(op);
    let (name, rest) = match base.len().checked_sub(2) {
        Some(n) => base.split_at(n),
        None => return 0,
    };
    let fma = ["fmadd", "fmsub", "fnmadd", "fnmsub"].iter().any(|p| name.starts_with(p));
    if !fma && !["mul", "add", "sub", "div", "max", "min"].contains(&name) {
        return 0;
    }
    let (packed, single) = match rest {
        "ps" => (true, true),
        "pd" => (true, false),
        "ss" => (false, true),
        "sd" => (false, false),
        _ => return 0,
    };
    let twice = if fma { 2 } else { 1 };
    if !packed {
        return twice;
    }
    let bytes = if operands.contains("%zmm") {
        64
    } else if operands.contains("%ymm") {
        32
    } else {
        16
    };
    twice * bytes / if single { 4 } else { 8 }
}

/// An innermost loop of an assembly listing.
#[derive(Clone, Debug, PartialEq)]
pub struct Loop {
    /// Floating-point lanes one iteration computes.
    pub lanes: u32,
    /// Its instructions, the closing branch last.
    pub body: Vec<String>,
}

/// The innermost loop (a backward branch's range holding no other) that
/// computes the most floating-point lanes, or `None` when no loop does.
pub fn hottest_loop(asm: &str) -> Option<Loop> {
    let mut body: Vec<String> = Vec::new();
    let mut labels: HashMap<&str, usize> = HashMap::new();
    for line in asm.lines() {
        let s = line.split('#').next().unwrap_or("").trim();
        if let Some(label) = s.strip_suffix(':') {
            labels.insert(label, body.len());
        } else if !s.is_empty() && !s.starts_with('.') {
            body.push(s.to_string());
        }
    }
    let loops: Vec<(usize, usize)> = body
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let (op, target) = s.split_once(char::is_whitespace)?;
            let start = *labels.get(target.trim())?;
            (op.starts_with('j') && start <= i).then_some((start, i))
        })
        .collect();
    let innermost =
        |&&(lo, hi): &&(usize, usize)| !loops.iter().any(|&(a, b)| (a, b) != (lo, hi) && lo <= a && b <= hi);
    loops
        .iter()
        .filter(innermost)
        .map(|&(lo, hi)| {
            let body = body[lo..=hi].to_vec();
            Loop { lanes: body.iter().map(|s| instruction_lanes(s)).sum(), body }
        })
        .filter(|l| l.lanes > 0)
        .max_by_key(|l| l.lanes)
}

fn instruction_lanes(s: &str) -> u32 {
    let (op, operands) = s.split_once(char::is_whitespace).unwrap_or((s, ""));
    lanes(op, operands)
}

/// What `--compiled` says where no llvm-mca is installed.
pub const NO_MCA: &str = "asking the compiler (--compiled, or a model of the 'compiled' feature set) needs LLVM's \
     llvm-mca (Debian: apt-get install llvm-19; or set TSS_LLVM_MCA to its path)";

/// LLVM's static throughput model.
#[derive(Clone, Debug)]
pub struct Mca {
    exe: PathBuf,
    /// The CPU whose pipeline it models (`-mcpu`): `native`, or the CPU of
    /// another machine's rows ([`Mca::for_cpu`]).
    cpu: String,
}

impl Mca {
    /// `$TSS_LLVM_MCA` (`None` when no such file), else the `llvm-mca` of
    /// the newest LLVM installed
    /// (older ones lack newer CPUs: LLVM 14 rejects AVX-512 on a Zen 4), else
    /// `llvm-mca` on `PATH`.
    pub fn find() -> Option<Mca> {
        if let Some(p) = std::env::var_os("TSS_LLVM_MCA") {
            let exe = PathBuf::from(p);
            return exe.exists().then_some(Mca { exe, cpu: "native".into() });
        }
        let newest = std::fs::read_dir("/usr/lib")
            .ok()?
            .filter_map(|e| {
                let name = e.ok()?.file_name().into_string().ok()?;
                let version: u32 = name.strip_prefix("llvm-")?.parse().ok()?;
                let exe = Path::new("/usr/lib").join(&name).join("bin/llvm-mca");
                exe.exists().then_some((version, exe))
            })
            .max();
        let exe = match newest {
            Some((_, exe)) => exe,
            None => Command::new("llvm-mca").arg("--version").output().ok().map(|_| PathBuf::from("llvm-mca"))?,
        };
        Some(Mca { exe, cpu: "native".into() })
    }

    /// The same model of another CPU (an LLVM CPU name, e.g. `znver3`).
    pub fn for_cpu(self, cpu: &str) -> Mca {
        Mca { cpu: cpu.into(), ..self }
    }

    /// Cycles per iteration of `body` on this CPU (its branches dropped).
    pub fn cycles(&self, body: &[String]) -> Result<f64, String> {
        const ITERATIONS: u32 = 200;
        let text: String = body.iter().filter(|s| !s.starts_with('j')).map(|s| format!("{s}\n")).collect();
        let mut child = Command::new(&self.exe)
            .args([&format!("-mcpu={}", self.cpu), &format!("-iterations={ITERATIONS}"), "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", self.exe.display()))?;
        child.stdin.take().expect("piped").write_all(text.as_bytes()).map_err(|e| e.to_string())?;
        let out = child.wait_with_output().map_err(|e| e.to_string())?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        let total =
            stdout.lines().find_map(|l| l.strip_prefix("Total Cycles:")).and_then(|v| v.trim().parse::<f64>().ok());
        match total {
            Some(c) if c > 0.0 => Ok(c / f64::from(ITERATIONS)),
            _ => {
                let err = String::from_utf8_lossy(&out.stderr);
                Err(format!("{}: {}", self.exe.display(), err.lines().next().unwrap_or("no estimate")))
            }
        }
    }
}

/// The kind of code `v` makes, as the variant compiled for it: tile sizes
/// [`TILE`], the rest of the config written out for a `d`-member band.
pub fn kind(v: &Variant, d: usize) -> Variant {
    match v {
        Variant::Untiled => Variant::Untiled,
        Variant::Tiled(c) => Variant::Tiled(crate::Config { tiles: vec![TILE; d], ..c.written_out(d) }),
    }
}

/// How a report names a kind: its config without the tile sizes
/// (`:4x4x1/pack`), `tiled` when that is empty, or `untiled`.
pub fn kind_label(kind: &Variant) -> String {
    let text = kind.to_string();
    match text.trim_start_matches(|c: char| c.is_ascii_digit() || c == 'x') {
        "" => "tiled".into(),
        rest => rest.into(),
    }
}

/// Lanes per cycle of each kind among `variants` at `sizes` (kinds whose
/// code has no floating-point loop or that fail are left out), compiled on
/// every core.
pub fn rates(session: &Session, sizes: &Sizes, variants: &[Variant], mca: &Mca) -> HashMap<Variant, f64> {
    let d = session.analysis.tile_dims();
    let mut kinds: Vec<Variant> = variants.iter().map(|v| kind(v, d)).collect();
    kinds.sort_by_key(|k| k.to_string());
    kinds.dedup();
    let rate = |k: &Variant| -> Option<f64> {
        let asm = session.assembly(k, sizes).ok()?;
        let hot = hottest_loop(&asm)?;
        Some(f64::from(hot.lanes) / mca.cycles(&hot.body).ok()?)
    };
    let n = crate::machine::cores().max(1);
    let mut out = HashMap::new();
    std::thread::scope(|s| {
        let handles: Vec<_> = kinds
            .chunks(kinds.len().div_ceil(n).max(1))
            .map(|chunk| s.spawn(move || chunk.iter().filter_map(|k| Some((k.clone(), rate(k)?))).collect::<Vec<_>>()))
            .collect();
        for h in handles {
            out.extend(h.join().expect("a compile thread panicked"));
        }
    });
    out
}

/// The compiler's estimates for one measured instance, as `tss eval` reads
/// them: each candidate's kind (config texts) and each kind's lanes per cycle.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Estimates {
    pub kind_of: HashMap<String, String>,
    pub rate: HashMap<String, f64>,
}

/// [`Estimates`] of every instance of the dataset rows `records`, from the
/// kernels they were measured on (`sources`), with `$CC $CFLAGS`;
/// `progress(done, of)` after each instance.
pub fn estimate_records(
    records: &[Record],
    sources: &mut Sources,
    mca: &Mca,
    mut progress: impl FnMut(usize, usize),
) -> Result<HashMap<InstanceKey, Estimates>, Error> {
    let mut tiles: HashMap<InstanceKey, Vec<&str>> = HashMap::new();
    for r in records {
        tiles.entry((r.kernel.clone(), r.mode.clone(), r.sizes.clone())).or_default().push(&r.tile);
    }
    let mut keys: Vec<&InstanceKey> = tiles.keys().collect();
    keys.sort();
    let compiler = Compiler::from_env().map_err(Error::Usage)?;
    let mut out = HashMap::new();
    for (done, key) in keys.iter().enumerate() {
        let (kernel, mode, sizes) = key;
        let (session, sizes) = session_at(sources, kernel, mode, sizes, &compiler)?;
        let d = session.analysis.tile_dims();
        let mut variants = Vec::new();
        let mut kind_of = HashMap::new();
        for t in &tiles[*key] {
            let v: Variant = t.parse().map_err(|e: String| Error::Usage(format!("{kernel}: {e}")))?;
            kind_of.insert(t.to_string(), kind(&v, d).to_string());
            variants.push(v);
        }
        let rate = rates(&session, &sizes, &variants, mca).into_iter().map(|(k, r)| (k.to_string(), r)).collect();
        out.insert((*key).clone(), Estimates { kind_of, rate });
        progress(done + 1, keys.len());
    }
    Ok(out)
}

/// The analysis of a stored row's `kernel` in `mode` (`serial`,
/// `parallel`), its mode, and the row's `sizes` bound to its parameters:
/// where rows' kinds of code are compiled from.
fn analysis_at<'a>(
    sources: &'a mut Sources,
    kernel: &str,
    mode: &str,
    sizes: &str,
) -> Result<(&'a crate::Analysis, Mode, Sizes), Error> {
    let mode = Mode::from_parallel(mode == "parallel");
    let (a, sizes) =
        sources.sized(kernel, mode.is_parallel(), sizes)?.ok_or_else(|| Error::Usage(Sources::unknown(kernel)))?;
    Ok((a, mode, sizes))
}

/// A row's error compiling `kernel` at `sizes`.
fn at(kernel: &str, sizes: impl std::fmt::Display, e: String) -> Error {
    Error::Usage(format!("{kernel} at {sizes}: {e}"))
}

/// A session compiling a stored row's `kernel` in `mode` with `compiler`,
/// and its `sizes` ([`analysis_at`]).
fn session_at<'a>(
    sources: &'a mut Sources,
    kernel: &str,
    mode: &str,
    sizes: &str,
    compiler: &Compiler,
) -> Result<(Session<'a>, Sizes), Error> {
    let (a, mode, sizes) = analysis_at(sources, kernel, mode, sizes)?;
    let session = Session::new(a, mode, compiler.clone(), Policy::default()).map_err(|e| at(kernel, &sizes, e))?;
    Ok((session, sizes))
}

/// The best-scored candidate (lowest of the model's `scores`) among those
/// whose kind of code the compiler does not estimate below [`FLOOR`] of the
/// best kind's lanes per cycle (`rate`, by the candidates' `kinds`; a kind
/// without an estimate stays eligible). `None` for no candidates.
pub fn first_by_kind<K: Eq + Hash>(scores: &[f64], kinds: &[K], rate: &HashMap<K, f64>) -> Option<usize> {
    first_allowed(scores, kinds, rate, |_| true)
}

/// [`first_by_kind`] among the candidates `allowed` keeps (the floor is
/// set by those alone): how `tss predict` and `tss eval` leave a strided
/// original out.
pub fn first_allowed<K: Eq + Hash>(
    scores: &[f64],
    kinds: &[K],
    rate: &HashMap<K, f64>,
    allowed: impl Fn(usize) -> bool,
) -> Option<usize> {
    let usable: Vec<usize> = (0..scores.len()).filter(|&i| allowed(i)).collect();
    let best = usable.iter().filter_map(|&i| rate.get(&kinds[i])).copied().fold(0.0, f64::max);
    let eligible = |k: &K| rate.get(k).is_none_or(|&r| r >= FLOOR * best);
    usable.into_iter().filter(|&i| eligible(&kinds[i])).min_by(|&a, &b| scores[a].total_cmp(&scores[b]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_count_vector_width_element_size_and_fma_twice() {
        assert_eq!(lanes("vfmadd231pd", "(%rax), %zmm1, %zmm2"), 16);
        assert_eq!(lanes("vfmadd231ps", "%ymm3, %ymm1, %ymm2"), 16);
        assert_eq!(lanes("vmulpd", "%xmm3, %xmm1, %xmm2"), 2);
        assert_eq!(lanes("vaddsd", "%xmm3, %xmm1, %xmm2"), 1);
        assert_eq!(lanes("vfnmadd213sd", "%xmm3, %xmm1, %xmm2"), 2);
        assert_eq!(lanes("addss", "%xmm1, %xmm2"), 1);
        assert_eq!(lanes("vmovapd", "(%rax), %zmm1"), 0);
        assert_eq!(lanes("vbroadcastsd", "(%rax), %zmm1"), 0);
        assert_eq!(lanes("addq", "$8, %rax"), 0);
        assert_eq!(lanes("vsubps", "%zmm1, %zmm2, %zmm3"), 16);
    }

    const LISTING: &str = "kernel:
.LFB0:
\tmovl\t$0, %eax
.L3:
\tvmovsd\t(%rdi,%rax,8), %xmm0
\taddq\t$1, %rax
\tcmpq\t%rax, %rsi
\tjne\t.L3
.L5:
\tvmovupd\t(%rdi,%rax), %zmm0
.L4:
\tvfmadd231pd\t(%rsi,%rax), %zmm1, %zmm0   # the hot one
\tvfmadd231pd\t64(%rsi,%rax), %zmm2, %zmm0
\taddq\t$128, %rax
\tcmpq\t%rax, %rdx
\tjne\t.L4
\tdecq\t%rcx
\tjne\t.L5
\tjmp\t.L9
.L9:
\tret
";

    #[test]
    fn the_hottest_loop_is_the_innermost_one_with_the_most_lanes() {
        let hot = hottest_loop(LISTING).unwrap();
        assert_eq!(hot.lanes, 32);
        assert_eq!(hot.body.len(), 5);
        assert!(hot.body[0].starts_with("vfmadd231pd"));
        assert_eq!(hot.body[4], "jne\t.L4");
        assert_eq!(hottest_loop("f:\n\tret\n"), None);
    }

    #[test]
    fn kinds_are_named_without_their_sizes() {
        let k = |s: &str| kind(&s.parse::<Variant>().unwrap(), 3);
        assert_eq!(k("128x16x8:4x1x4/pack"), k("32x32x32:4x1x4/pack"));
        assert_eq!(k("128:4"), k("64x64x64:4x4x4"));
        assert_eq!(kind_label(&k("128x16x8:4x1x4/pack")), ":4x1x4/pack");
        assert_eq!(kind_label(&k("128")), "tiled");
        assert_eq!(kind_label(&k("untiled")), "untiled");
    }

    #[test]
    fn the_best_score_is_taken_among_kinds_the_compiler_finds_fast_enough() {
        let kinds = ["a", "a", "b", "c"];
        let scores = [1.0, 0.9, 1.1, 0.5];
        // Without estimates, the best score.
        assert_eq!(first_by_kind(&scores, &kinds, &HashMap::new()), Some(3));
        // c far slower than b: a's best.
        let rate = HashMap::from([("a", 5.0), ("b", 8.0), ("c", 1.0)]);
        assert_eq!(first_by_kind(&scores, &kinds, &rate), Some(1));
        // a just under the floor too: b.
        let rate = HashMap::from([("a", 4.7), ("b", 8.0), ("c", 1.0)]);
        assert_eq!(first_by_kind(&scores, &kinds, &rate), Some(2));
        // A kind without an estimate stays eligible.
        let rate = HashMap::from([("a", 1.0), ("b", 8.0)]);
        assert_eq!(first_by_kind(&scores, &kinds, &rate), Some(3));
        assert_eq!(first_by_kind::<&str>(&[], &[], &HashMap::new()), None);
        // Left-out candidates neither get picked nor set the floor: without
        // b, a is fast enough again.
        let rate = HashMap::from([("a", 4.7), ("b", 8.0), ("c", 1.0)]);
        assert_eq!(first_allowed(&scores, &kinds, &rate, |i| kinds[i] != "b"), Some(1));
        assert_eq!(first_allowed(&scores, &kinds, &rate, |_| false), None);
    }
}
