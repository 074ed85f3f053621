//! `$CC $CFLAGS -shared` with a content-addressed cache of objects.
//!
//! The cache key hashes the driver source, the flags, the tile defines and
//! the compiler's identity, so a changed compiler or flag never reuses a
//! stale object, and a sweep over many instances compiles each (kernel,
//! tile) once.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};

/// The paper's flags were `-O2`; at `-O3 -march=native` tile sizes matter
/// far more (see README), so that is the default.
pub const DEFAULT_CFLAGS: &str = "-O3 -march=native";

#[derive(Clone, Debug)]
pub struct Compiler {
    pub cc: String,
    pub cflags: Vec<String>,
    pub cache: PathBuf,
    /// First line of `cc --version`.
    pub version: String,
}

impl Compiler {
    /// `$CC` (default `cc`), `$CFLAGS` (default [`DEFAULT_CFLAGS`]) and the
    /// cache directory `$TSS_CACHE`, else `$XDG_CACHE_HOME/tss`, else `~/.cache/tss`.
    pub fn from_env() -> Result<Compiler, String> {
        let cc = std::env::var("CC").ok().filter(|s| !s.trim().is_empty()).unwrap_or_else(|| "cc".into());
        let cflags = std::env::var("CFLAGS").ok().filter(|s| !s.trim().is_empty()).unwrap_or(DEFAULT_CFLAGS.into());
        let cache = Compiler::cache_dir().unwrap_or_else(|| std::env::temp_dir().join("tss"));
        Compiler::new(&cc, &cflags, cache.join("objects"))
    }

    /// tss's cache root: `$TSS_CACHE`, else `$XDG_CACHE_HOME/tss`, else `~/.cache/tss`.
    pub fn cache_dir() -> Option<PathBuf> {
        std::env::var_os("TSS_CACHE").map(PathBuf::from).or_else(|| {
            std::env::var_os("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")))
                .map(|d| d.join("tss"))
        })
    }

    pub fn new(cc: &str, cflags: &str, cache: PathBuf) -> Result<Compiler, String> {
        let out = Command::new(cc)
            .arg("--version")
            .output()
            .map_err(|e| format!("cannot run the C compiler '{cc}': {e} (set CC to a working compiler)"))?;
        let version = String::from_utf8_lossy(&out.stdout).lines().next().unwrap_or("").trim().to_string();
        std::fs::create_dir_all(&cache).map_err(|e| format!("{}: {e}", cache.display()))?;
        Ok(Compiler { cc: cc.into(), cflags: cflags.split_whitespace().map(String::from).collect(), cache, version })
    }

    /// The same compiler with other flags (e.g. another machine's rows'
    /// `-march`), sharing the cache, which keys objects by their flags.
    pub fn with_cflags(&self, cflags: &str) -> Compiler {
        Compiler { cflags: cflags.split_whitespace().map(String::from).collect(), ..self.clone() }
    }

    /// Compiles `source` into a shared object (cached) and returns its path.
    /// The error is the compiler's first diagnostic line.
    pub fn shared_object(&self, source: &str, defines: &[String], openmp: bool) -> Result<PathBuf, String> {
        let mut args: Vec<String> = self.cflags.clone();
        args.extend(["-fPIC".into(), "-shared".into()]);
        if openmp {
            args.push("-fopenmp".into());
        }
        args.extend(defines.iter().cloned());
        let key =
            fnv1a([self.cc.as_str(), &self.version, &args.join(" "), source].iter().flat_map(|s| s.bytes().chain([0])));
        let so = self.cache.join(format!("{key:016x}.so"));
        if so.exists() {
            return Ok(so);
        }
        // Names unique per process *and* call: two threads compiling one key
        // (two configs with the same code, e.g. `64x64` and `64x64x64` of a
        // 2-deep band) once shared a temporary, and the second rename found
        // it gone ("<key>.so: No such file or directory").
        let unique = format!("{key:016x}.{}.{}", std::process::id(), UNIQUE.fetch_add(1, Ordering::Relaxed));
        let c = self.cache.join(format!("{unique}.c"));
        let tmp = self.cache.join(format!("{unique}.tmp"));
        std::fs::write(&c, source).map_err(|e| format!("{}: {e}", c.display()))?;
        let out = Command::new(&self.cc)
            .args(&args)
            .arg("-o")
            .arg(&tmp)
            .arg(&c)
            .arg("-lm")
            .output()
            .map_err(|e| format!("cannot run '{}': {e}", self.cc))?;
        // The source stays beside its object, under the key, for inspection.
        let _ = std::fs::rename(&c, self.cache.join(format!("{key:016x}.c")));
        if !out.status.success() {
            return Err(self.failure(&out.stderr));
        }
        std::fs::rename(&tmp, &so).map_err(|e| format!("{}: {e}", so.display()))?;
        Ok(so)
    }

    /// The assembly `$CC $CFLAGS -fPIC -S` makes of `source`, as
    /// [`Compiler::shared_object`] compiles it (not cached: it is read
    /// once). The error is the compiler's first diagnostic line.
    pub fn assembly(&self, source: &str, defines: &[String], openmp: bool) -> Result<String, String> {
        let mut child = Command::new(&self.cc)
            .args(&self.cflags)
            .arg("-fPIC")
            .args(openmp.then_some("-fopenmp"))
            .args(defines)
            .args(["-x", "c", "-", "-S", "-o", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run '{}': {e}", self.cc))?;
        child.stdin.take().expect("piped").write_all(source.as_bytes()).map_err(|e| e.to_string())?;
        let out = child.wait_with_output().map_err(|e| format!("'{}': {e}", self.cc))?;
        if !out.status.success() {
            return Err(self.failure(&out.stderr));
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// A failed compile in one line: the first that names an error, else
    /// the first.
    fn failure(&self, stderr: &[u8]) -> String {
        let err = String::from_utf8_lossy(stderr);
        let first = err.lines().find(|l| l.contains("error")).or(err.lines().next()).unwrap_or("no message");
        format!("{} failed: {}", self.cc, first.trim())
    }

    /// `cc --version` line and flags, for dataset metadata.
    pub fn flags(&self) -> String {
        self.cflags.join(" ")
    }
}

/// Per-call part of the temporary names of [`Compiler::shared_object`].
static UNIQUE: AtomicU64 = AtomicU64::new(0);

/// 64-bit FNV-1a: a stable content hash (std's hasher may change between releases).
pub fn fnv1a(bytes: impl Iterator<Item = u8>) -> u64 {
    bytes.fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiles_caches_and_reports_errors() {
        let dir = tempfile::tempdir().unwrap();
        let c = Compiler::new("cc", "-O1", dir.path().into()).unwrap();
        let a = c.shared_object("int tss_f(void) { return 1; }\n", &[], false).unwrap();
        let b = c.shared_object("int tss_f(void) { return 1; }\n", &[], false).unwrap();
        assert_eq!(a, b);
        let d = c.shared_object("int tss_f(void) { return 1; }\n", &["-DX=1".into()], false).unwrap();
        assert_ne!(a, d);
        let e = c.shared_object("int tss_f(void) { return }\n", &[], false).unwrap_err();
        assert!(e.contains("error"), "{e}");
        assert!(Compiler::new("no-such-cc-xyz", "", dir.path().into()).is_err());
    }

    #[test]
    fn concurrent_compiles_of_one_key_all_succeed() {
        let dir = tempfile::tempdir().unwrap();
        let c = Compiler::new("cc", "-O1", dir.path().into()).unwrap();
        let src = "int tss_g(void) { return 2; }\n";
        let results: Vec<Result<PathBuf, String>> = std::thread::scope(|s| {
            let threads: Vec<_> = (0..6).map(|_| s.spawn(|| c.shared_object(src, &[], false))).collect();
            threads.into_iter().map(|t| t.join().unwrap()).collect()
        });
        assert!(results.iter().all(|r| r.as_ref().is_ok_and(|p| p.exists())), "{results:?}");
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.iter().filter(|n| n.ends_with(".tmp")).count(), 0, "{names:?}");
        assert_eq!(names.iter().filter(|n| n.ends_with(".c")).count(), 1, "{names:?}");
    }
}
