//! The machine tss runs on: cache geometry (for candidate tiles and
//! working-set features) and identity (recorded with data and models so a
//! model is not silently used on a machine it never saw).

use crate::harness::session::SizeBinding;
use std::fs;

use serde::{Deserialize, Serialize};

/// Cache geometry in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Caches {
    pub l1d: u64,
    pub l2: u64,
    pub line: u64,
}

impl Caches {
    /// The paper's machine (i7-9700F): used when sysfs says nothing.
    pub const PAPER: Caches = Caches { l1d: 32 << 10, l2: 256 << 10, line: 64 };

    /// This machine's caches from `/sys/devices/system/cpu/cpu0/cache`,
    /// falling back to [`Caches::PAPER`] field by field.
    pub fn detect() -> Caches {
        let mut c = Caches::PAPER;
        let base = "/sys/devices/system/cpu/cpu0/cache";
        for idx in 0..8 {
            let read = |f: &str| fs::read_to_string(format!("{base}/index{idx}/{f}")).map(|s| s.trim().to_string());
            let (Ok(level), Ok(kind), Ok(size)) = (read("level"), read("type"), read("size")) else { continue };
            let Some(bytes) = parse_bytes(&size) else { continue };
            match (level.as_str(), kind.as_str()) {
                ("1", "Data") => c.l1d = bytes,
                ("2", "Unified") | ("2", "Data") => c.l2 = bytes,
                _ => {}
            }
            if let Some(line) = read("coherency_line_size").ok().and_then(|l| l.parse().ok()) {
                c.line = line;
            }
        }
        c
    }
}

/// `1024K`, `2M`, `32768` -> bytes.
pub fn parse_bytes(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, mult) = match s.chars().last()? {
        'K' | 'k' => (&s[..s.len() - 1], 1 << 10),
        'M' | 'm' => (&s[..s.len() - 1], 1 << 20),
        'G' | 'g' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    num.trim().parse::<u64>().ok().filter(|&n| n > 0).map(|n| n * mult)
}

/// Who measured: stored with datasets and models.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MachineInfo {
    pub cpu: String,
    pub cores: usize,
    pub caches: Caches,
}

impl MachineInfo {
    pub fn detect() -> MachineInfo {
        let cpu = fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|t| {
                t.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, v)| v.trim().to_string())
            })
            .unwrap_or_else(|| "unknown".to_string());
        MachineInfo { cpu, cores: cores(), caches: Caches::detect() }
    }
}

/// Version of the harness's timing setup (the driver around each variant,
/// `harness::driver`, and how often it runs). Rows timed by another version
/// are not comparable with new ones: 1 declared the arrays as block-scope
/// `restrict` locals, which gcc ignores; 2 passes them as `restrict`
/// parameters; 3 times every variant in [`ROUNDS`] worker processes and
/// keeps the median of their minima, where 2 used one process.
pub const HARNESS: u32 = 3;

/// Worker processes every variant runs in (harness 3). On the Zen 3 the
/// same register tile of a memory-bound dense layer ran 8.6-13.7 ms from one
/// process to the next (within one, its fastest of five runs stayed within
/// 7 % of their median): a candidate timed in one process is ranked partly
/// by its luck.
pub const ROUNDS: usize = 3;

/// Everything that makes timings from two machines incomparable: CPU, vector
/// ISA, caches, cores, compiler and flags. A dataset directory holds rows of
/// one descriptor (`machine.json`), and its [`Descriptor::slug`] names the
/// directory.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Descriptor {
    /// `model name` of `/proc/cpuinfo` (`AMD EPYC`: not enough on its own,
    /// Zen 3 and Zen 4 cloud parts both report it).
    pub cpu: String,
    pub vendor: String,
    /// `cpu family` and `model` of `/proc/cpuinfo`; `None` when not recorded.
    pub family: Option<u32>,
    pub model: Option<u32>,
    /// Widest vector extension: `avx512`, `avx2`, `avx`, `sse2`, `sve`, `neon`, `scalar`.
    pub isa: String,
    pub vector_bits: u32,
    /// Per-core data cache bytes, and the shared L3 (`None` when absent).
    pub l1d: u64,
    pub l2: u64,
    pub l3: Option<u64>,
    pub line: u64,
    pub cores: usize,
    /// First line of `cc --version`, and the flags every kernel is built with.
    pub cc: String,
    pub cflags: String,
    /// [`HARNESS`] version that timed the rows (1 when not recorded).
    #[serde(default = "first_harness")]
    pub harness: u32,
    /// Whether sizes were compile-time constants (runtime when not recorded).
    #[serde(default = "first_sizes")]
    pub sizes: SizeBinding,
    /// How the descriptor was made when not by detection.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

impl Descriptor {
    /// Threads code runs on in `parallel` mode (one per core) or serially.
    pub fn threads(&self, parallel: bool) -> usize {
        if parallel { self.cores } else { 1 }
    }

    /// This machine, with the compiler `cc` (its `--version` line) and `cflags`.
    pub fn detect(cc: &str, cflags: &str) -> Descriptor {
        let info = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let field = |name: &str| {
            info.lines()
                .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        };
        let flags = field("flags").or_else(|| field("Features")).unwrap_or_default();
        let (isa, vector_bits) = isa(&flags.split_whitespace().collect::<Vec<_>>());
        let caches = Caches::detect();
        Descriptor {
            cpu: field("model name").unwrap_or_else(|| "unknown".into()),
            vendor: field("vendor_id").or_else(|| field("CPU implementer")).unwrap_or_else(|| "unknown".into()),
            family: field("cpu family").and_then(|v| v.parse().ok()),
            model: field("model").and_then(|v| v.parse().ok()),
            isa: isa.into(),
            vector_bits,
            l1d: caches.l1d,
            l2: caches.l2,
            l3: cache_bytes(3),
            line: caches.line,
            cores: cores(),
            cc: cc.into(),
            cflags: cflags.into(),
            harness: HARNESS,
            sizes: SizeBinding::Constant,
            note: String::new(),
        }
    }

    /// Vector registers of the ISA: what a register tile may fill (32 on
    /// AVX-512, SVE and NEON, 16 on AVX/AVX2 and SSE2).
    pub fn vector_registers(&self) -> usize {
        match self.isa.as_str() {
            "avx512" | "sve" | "neon" => 32,
            _ => 16,
        }
    }

    /// Where this machine's data lives, relative to the repository:
    /// `data/<slug>/`, or `data/<slug>/harness3-constant/` for rows timed by
    /// a later harness (the first harness's files sit in `data/<slug>/`).
    /// A toolchain other than gcc at the default flags adds its tag (see
    /// [`Descriptor::toolchain`]): `harness3-constant-clang19/`.
    pub fn data_dir(&self) -> String {
        self.data_dir_named(false)
    }

    /// [`Descriptor::data_dir`] with the CPU's family and model in the
    /// harness directory's name (`harness3-constant-f25m17/`), for a machine
    /// whose slug another CPU's rows already hold there; see
    /// [`crate::dataset::data_dir_under`].
    pub fn data_dir_with_id(&self) -> String {
        self.data_dir_named(self.cpu_id().is_some())
    }

    fn data_dir_named(&self, with_id: bool) -> String {
        let id = self.cpu_id().filter(|_| with_id).map(|i| format!("-{i}")).unwrap_or_default();
        let tag = self.toolchain().map(|t| format!("-{t}")).unwrap_or_default();
        if self.harness == 1 {
            format!("data/{}{id}{tag}/", self.slug())
        } else {
            format!("data/{}/harness{}-{}{id}{tag}/", self.slug(), self.harness, self.sizes)
        }
    }

    /// `f25m17` for CPU family 25 model 17: what tells apart CPUs that share
    /// a [`Descriptor::slug`] (cloud parts of Zen 3, 4 and 5 all call
    /// themselves `AMD EPYC`). `None` when either is unrecorded.
    pub fn cpu_id(&self) -> Option<String> {
        Some(format!("f{}m{}", self.family?, self.model?))
    }

    /// The machine and its toolchain as one name, for what is kept per
    /// platform in the user's cache (adapted models and their rows):
    /// [`Descriptor::slug`], then [`Descriptor::cpu_id`] when recorded (so
    /// that a VM moved to another CPU of the same name does not pick up the
    /// other CPU's model), then the toolchain's tag when it has one.
    pub fn platform(&self) -> String {
        let mut name = self.slug();
        for part in [self.cpu_id(), self.toolchain()].into_iter().flatten() {
            name = format!("{name}-{part}");
        }
        name
    }

    /// A short tag for a toolchain other than gcc with
    /// [`DEFAULT_CFLAGS`](crate::harness::compile::DEFAULT_CFLAGS): the
    /// compiler and its major version (`clang19`), then the flags when they
    /// differ (`gcc12-o2`). A compiler or flag change is a new platform:
    /// its timings, and so its data and adapted models, are its own. `None`
    /// for the default, so that its directories keep their names; also for
    /// an unrecorded compiler.
    pub fn toolchain(&self) -> Option<String> {
        let default_flags =
            self.cflags.split_whitespace().eq(crate::harness::compile::DEFAULT_CFLAGS.split_whitespace());
        let compiler = compiler_tag(&self.cc)?;
        if compiler.starts_with("gcc") && default_flags {
            return None;
        }
        if default_flags {
            return Some(compiler);
        }
        let flags: String = self
            .cflags
            .to_lowercase()
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join("-");
        Some(format!("{compiler}-{flags}"))
    }

    /// A directory name for this machine's data and models:
    /// `amd-epyc-avx2-l2-512k`. Machines that share it but differ elsewhere
    /// are told apart by [`Descriptor::differences`].
    pub fn slug(&self) -> String {
        let name: Vec<String> = self
            .cpu
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty() && !["r", "tm", "cpu", "processor", "core"].contains(&w.to_lowercase().as_str()))
            .take(4)
            .map(str::to_lowercase)
            .collect();
        format!(
            "{}-{}-l2-{}",
            name.join("-"),
            self.isa,
            human(self.l2).to_lowercase().replace(' ', "").replace("ib", "")
        )
    }

    /// One line for messages: `AMD EPYC (family 25 model 1), avx2, L1d 32 KiB, ...`.
    pub fn summary(&self) -> String {
        let id = match (self.family, self.model) {
            (Some(f), Some(m)) => format!(" (family {f} model {m})"),
            _ => String::new(),
        };
        let l3 = self.l3.map(|b| format!(", L3 {}", human(b))).unwrap_or_default();
        format!(
            "{}{id}, {} {}-bit, L1d {}, L2 {}{l3}, {} cores; {} {}",
            self.cpu,
            self.isa,
            self.vector_bits,
            human(self.l1d),
            human(self.l2),
            self.cores,
            self.cc,
            self.cflags
        )
    }

    /// The fields in which `other` differs from `self`, as `name: ours vs
    /// theirs`; fields either side did not record are not compared.
    pub fn differences(&self, other: &Descriptor) -> Vec<String> {
        let mut out = Vec::new();
        let mut cmp = |name: &str, a: String, b: String| {
            if a != b {
                out.push(format!("{name} {a} vs {b}"));
            }
        };
        cmp("cpu", self.cpu.clone(), other.cpu.clone());
        if let (Some(a), Some(b)) = (self.family, other.family) {
            cmp("family", a.to_string(), b.to_string());
        }
        if let (Some(a), Some(b)) = (self.model, other.model) {
            cmp("model", a.to_string(), b.to_string());
        }
        cmp("isa", self.isa.clone(), other.isa.clone());
        cmp("L1d", human(self.l1d), human(other.l1d));
        cmp("L2", human(self.l2), human(other.l2));
        if let (Some(a), Some(b)) = (self.l3, other.l3) {
            cmp("L3", human(a), human(b));
        }
        cmp("cores", self.cores.to_string(), other.cores.to_string());
        cmp("compiler", self.cc.clone(), other.cc.clone());
        cmp("flags", self.cflags.clone(), other.cflags.clone());
        out
    }

    /// [`Self::differences`], and the harness version and size binding too:
    /// what keeps two descriptors' rows out of one file even on one CPU.
    pub fn timing_differences(&self, other: &Descriptor) -> Vec<String> {
        let mut out = self.differences(other);
        if self.harness != other.harness {
            out.push(format!("harness version {} vs {}", self.harness, other.harness));
        }
        if self.sizes != other.sizes {
            out.push(format!("sizes {} vs {}", self.sizes, other.sizes));
        }
        out
    }
}

fn first_harness() -> u32 {
    1
}

fn first_sizes() -> SizeBinding {
    SizeBinding::Runtime
}

/// `clang19` for `Debian clang version 19.1.7`, `gcc12` for `cc (Debian
/// 12.2.0-14) 12.2.0` (Debian's `cc` is gcc), else the first word and the
/// first version's major; `None` for an empty `--version` line.
fn compiler_tag(version: &str) -> Option<String> {
    let lower = version.to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let name = if lower.contains("clang") {
        "clang".to_string()
    } else if lower.contains("gcc") || words.first().is_some_and(|w| *w == "cc" || *w == "c99") {
        "gcc".to_string()
    } else {
        words.first()?.rsplit('/').next()?.chars().filter(char::is_ascii_alphanumeric).collect()
    };
    // The first word shaped like `19.1.7`: gcc's line ends with it, clang's
    // names it after "version"; a distribution's `(Debian 12.2.0-14)` agrees.
    let major = words
        .iter()
        .map(|w| w.trim_matches(|c: char| !c.is_ascii_digit()))
        .find(|w| w.contains('.') && w.split('.').all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit())))
        .and_then(|w| w.split('.').next())
        .unwrap_or("");
    Some(format!("{name}{major}"))
}

/// The widest vector extension in a `/proc/cpuinfo` flag list, and its width.
fn isa(flags: &[&str]) -> (&'static str, u32) {
    let has = |f: &str| flags.contains(&f);
    if has("avx512f") {
        ("avx512", 512)
    } else if has("avx2") {
        ("avx2", 256)
    } else if has("avx") {
        ("avx", 256)
    } else if has("sve") {
        ("sve", 128)
    } else if has("asimd") {
        ("neon", 128)
    } else if has("sse2") {
        ("sse2", 128)
    } else {
        ("scalar", 64)
    }
}

/// The size of the cache at `level` of cpu0, if sysfs lists one.
fn cache_bytes(level: u32) -> Option<u64> {
    let base = "/sys/devices/system/cpu/cpu0/cache";
    (0..8).find_map(|idx| {
        let read = |f: &str| fs::read_to_string(format!("{base}/index{idx}/{f}")).ok();
        (read("level")?.trim() == level.to_string()).then_some(())?;
        parse_bytes(&read("size")?)
    })
}

/// `524288` -> `512 KiB`, `33554432` -> `32 MiB`.
pub fn human(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes.is_multiple_of(1 << 10) {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} B")
    }
}

/// Cores available to this process (what OpenMP should use in parallel mode).
pub fn cores() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_bytes("1024K"), Some(1 << 20));
        assert_eq!(parse_bytes("2M"), Some(2 << 20));
        assert_eq!(parse_bytes("64"), Some(64));
        assert_eq!(parse_bytes("x"), None);
        assert_eq!(parse_bytes("0K"), None);
    }

    #[test]
    fn descriptors_name_their_differences() {
        let here = Descriptor::detect("cc 12", "-O3 -march=native");
        assert!(here.vector_bits >= 64 && !here.cpu.is_empty(), "{here:?}");
        let mut zen4 = here.clone();
        (zen4.cpu, zen4.isa, zen4.l2, zen4.family) = ("AMD EPYC".into(), "avx512".into(), 1 << 20, None);
        assert_eq!(zen4.slug(), "amd-epyc-avx512-l2-1m");
        assert_eq!(Descriptor { harness: 1, ..zen4.clone() }.data_dir(), "data/amd-epyc-avx512-l2-1m/");
        let v2 = Descriptor { harness: 2, sizes: SizeBinding::Constant, ..zen4.clone() };
        assert_eq!(v2.data_dir(), "data/amd-epyc-avx512-l2-1m/harness2-constant/");
        let d = here.differences(&zen4);
        assert_eq!(d.iter().any(|x| x.starts_with("L2 ")), here.l2 != 1 << 20, "{d:?}");
        assert!(!d.iter().any(|x| x.starts_with("family")), "unrecorded fields are not compared: {d:?}");
        assert!(here.differences(&here).is_empty());
        assert_eq!(human(512 << 10), "512 KiB");
        assert_eq!(isa(&["sse2", "avx", "avx2"]), ("avx2", 256));
    }

    #[test]
    fn toolchains_other_than_the_default_name_their_platform() {
        let gcc = "cc (Debian 12.2.0-14+deb12u1) 12.2.0";
        let mut d = Descriptor::detect(gcc, "-O3  -march=native");
        (d.cpu, d.isa, d.l2, d.family, d.model) = ("AMD EPYC".into(), "avx2".into(), 512 << 10, None, None);
        assert_eq!(d.toolchain(), None);
        assert_eq!(d.platform(), "amd-epyc-avx2-l2-512k");
        assert_eq!(d.data_dir(), "data/amd-epyc-avx2-l2-512k/harness3-constant/");
        let clang = Descriptor { cc: "Debian clang version 19.1.7 (3~deb12u1)".into(), ..d.clone() };
        assert_eq!(clang.toolchain().as_deref(), Some("clang19"));
        assert_eq!(clang.data_dir(), "data/amd-epyc-avx2-l2-512k/harness3-constant-clang19/");
        assert_eq!(clang.platform(), "amd-epyc-avx2-l2-512k-clang19");
        let o2 = Descriptor { cflags: "-O2".into(), ..d.clone() };
        assert_eq!(o2.toolchain().as_deref(), Some("gcc12-o2"));
        let gcc13 = Descriptor { cc: "gcc (GCC) 13.1.1 20230429".into(), ..d.clone() };
        assert_eq!(gcc13.toolchain(), None);
        let icx =
            Descriptor { cc: "Intel(R) oneAPI DPC++/C++ Compiler 2024.0.2 (2024.0.2.20231213)".into(), ..d.clone() };
        assert_eq!(icx.toolchain().as_deref(), Some("intelr2024"));
        assert_eq!(Descriptor { cc: String::new(), ..d }.toolchain(), None);
    }

    #[test]
    fn cpus_of_one_name_get_their_own_platform_and_directory() {
        let gcc = "cc (Debian 12.2.0-14+deb12u1) 12.2.0";
        let mut zen4 = Descriptor::detect(gcc, "-O3 -march=native");
        (zen4.cpu, zen4.isa, zen4.l2, zen4.family, zen4.model) =
            ("AMD EPYC".into(), "avx512".into(), 1 << 20, Some(25), Some(17));
        let zen5 = Descriptor { family: Some(26), model: Some(2), ..zen4.clone() };
        assert_eq!(zen4.slug(), zen5.slug());
        assert_eq!(zen4.platform(), "amd-epyc-avx512-l2-1m-f25m17");
        assert_ne!(zen4.platform(), zen5.platform());
        assert_eq!(zen4.data_dir(), zen5.data_dir(), "the first choice is shared");
        assert_eq!(zen4.data_dir_with_id(), "data/amd-epyc-avx512-l2-1m/harness3-constant-f25m17/");
        let clang = Descriptor { cc: "Debian clang version 19.1.7 (3~deb12u1)".into(), ..zen4.clone() };
        assert_eq!(clang.platform(), "amd-epyc-avx512-l2-1m-f25m17-clang19");
        assert_eq!(clang.data_dir_with_id(), "data/amd-epyc-avx512-l2-1m/harness3-constant-f25m17-clang19/");
        let unrecorded = Descriptor { model: None, ..zen4 };
        assert_eq!(unrecorded.data_dir_with_id(), unrecorded.data_dir());
    }

    #[test]
    fn detected_caches_are_plausible() {
        let c = Caches::detect();
        assert!(c.l1d >= 4096 && c.l2 >= c.l1d && c.line.is_power_of_two(), "{c:?}");
    }
}
