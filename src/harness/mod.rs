//! Measuring tiled kernels for real: generate a C driver for a SCoP,
//! compile one shared object per (kernel, tile sizes) with the system C
//! compiler, and time it in a separate worker process.
//!
//! - [`driver`]: the C source of a variant (tiled with fixed tile sizes, or
//!   the untiled baseline) behind one entry point, and the array extents an
//!   instance needs (computed with ISL, so PolyBench headers are not needed);
//! - [`compile`]: `$CC $CFLAGS -shared`, cached by content hash;
//! - [`worker`]: runs variants out of process with a timeout, so a candidate
//!   that crashes, hangs or computes wrong results is recorded, not fatal.
//!
//! Tile sizes are compile-time constants (`-DTSS_T1=64`): constant tiles
//! compile to much faster code than runtime ones. Problem sizes are runtime
//! arguments, so one object serves every instance of a kernel.

pub mod compile;
pub mod driver;
pub mod session;
pub mod worker;

use std::fmt;
use std::str::FromStr;

use crate::config::Config;
use crate::frontend::Element;
use serde::{Deserialize, Serialize};

/// Serial (one pinned core) or parallel (OpenMP, one thread per core).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    #[default]
    Serial,
    Parallel,
}

impl Mode {
    pub fn from_parallel(parallel: bool) -> Mode {
        if parallel { Mode::Parallel } else { Mode::Serial }
    }
    pub fn is_parallel(self) -> bool {
        self == Mode::Parallel
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.is_parallel() { "parallel" } else { "serial" })
    }
}

impl FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Mode, String> {
        match s {
            "serial" => Ok(Mode::Serial),
            "parallel" => Ok(Mode::Parallel),
            _ => Err(format!("unknown mode '{s}' (serial or parallel)")),
        }
    }
}

/// How [`Variant::Untiled`] is written (the `tile` column of its dataset rows).
pub const UNTILED: &str = "untiled";

/// What one compiled object computes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// The original loop order (outer loops under OpenMP in parallel mode).
    Untiled,
    /// The tiled code with this config (tile sizes and unroll-and-jam
    /// factors per band member).
    Tiled(Config),
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Variant::Untiled => f.write_str(UNTILED),
            Variant::Tiled(c) => c.fmt(f),
        }
    }
}

impl Variant {
    /// The config the features describe, its tile sizes written out for a
    /// `d`-member band (`None`: the untiled original).
    pub fn feature_config(&self, d: usize) -> Option<Config> {
        match self {
            Variant::Untiled => None,
            Variant::Tiled(c) => Some(c.written_out(d)),
        }
    }

    /// The kind of code a variant makes, for [`crate::select::search_order`]:
    /// `None` for the original, else [`crate::Config::search_class`]
    /// (`64x64x64:4` unrolls each member by 4).
    pub fn search_class(&self, d: usize) -> Option<(bool, bool, usize, usize)> {
        match self {
            Variant::Untiled => None,
            Variant::Tiled(c) => Some(c.search_class(d)),
        }
    }
}

impl FromStr for Variant {
    type Err = String;
    fn from_str(s: &str) -> Result<Variant, String> {
        if s == UNTILED {
            return Ok(Variant::Untiled);
        }
        s.parse::<Config>().map(Variant::Tiled).map_err(|e| format!("bad tile '{s}': {e}"))
    }
}

/// How a measurement ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Ok,
    /// Checksum differs from the untiled code's.
    Wrong,
    Crash,
    Timeout,
    CompileError,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::Ok => "ok",
            Status::Wrong => "wrong",
            Status::Crash => "crash",
            Status::Timeout => "timeout",
            Status::CompileError => "compile-error",
        })
    }
}

impl FromStr for Status {
    type Err = String;
    fn from_str(s: &str) -> Result<Status, String> {
        Ok(match s {
            "ok" => Status::Ok,
            "wrong" => Status::Wrong,
            "crash" => Status::Crash,
            "timeout" => Status::Timeout,
            "compile-error" => Status::CompileError,
            _ => return Err(format!("unknown status '{s}'")),
        })
    }
}

/// Timing of one variant.
#[derive(Clone, Debug, PartialEq)]
pub struct Timing {
    pub status: Status,
    /// Seconds per run, in the order measured (empty unless ran).
    pub times: Vec<f64>,
    pub checksum: Option<f64>,
    /// Why it failed, when it did.
    pub detail: String,
}

impl Timing {
    pub fn failed(status: Status, detail: impl Into<String>) -> Timing {
        Timing { status, times: Vec::new(), checksum: None, detail: detail.into() }
    }
    pub fn min(&self) -> Option<f64> {
        self.times.iter().copied().reduce(f64::min)
    }
    pub fn median(&self) -> Option<f64> {
        crate::stats::median(&self.times)
    }
    /// (max - min) / median: how noisy the repetitions were.
    pub fn spread(&self) -> Option<f64> {
        let (min, med) = (self.min()?, self.median()?);
        let max = self.times.iter().copied().reduce(f64::max)?;
        Some((max - min) / med)
    }
}

/// Checksums agree to a relative 1e-9 for `double` (1e-5 for `float`, whose
/// rounding is 2^29 times coarser; a tiled sgemm at 40x36x33 already differs
/// by 1.1e-9): tiling reorders no floating-point reduction, but the compiler
/// may contract into FMAs differently around new loops. NaN agrees only with
/// NaN and an infinity only with itself, so a kernel that overflows is still
/// compared exactly.
pub fn checksums_agree(a: f64, b: f64, element: Element) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    if a.is_infinite() || b.is_infinite() {
        return a == b;
    }
    let tolerance = match element {
        Element::Double => 1e-9,
        Element::Float => 1e-5,
    };
    a == b || (a - b).abs() <= tolerance * a.abs().max(b.abs()).max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_round_trip() {
        for s in ["untiled", "32", "16x64x8", "64x256x128:4x1x4"] {
            assert_eq!(s.parse::<Variant>().unwrap().to_string(), s);
        }
        assert!("0x3".parse::<Variant>().is_err());
    }

    #[test]
    fn timing_stats() {
        let t = Timing { status: Status::Ok, times: vec![3.0, 1.0, 2.0, 10.0], checksum: None, detail: String::new() };
        assert_eq!((t.min(), t.median()), (Some(1.0), Some(2.5)));
        assert_eq!(t.spread(), Some(9.0 / 2.5));
        let agree = |a, b| checksums_agree(a, b, Element::Double);
        assert!(agree(1e6, 1e6 + 1e-4) && !agree(1.0, 1.001));
        assert!(agree(f64::NAN, -f64::NAN) && !agree(f64::NAN, 1.0));
        assert!(agree(f64::INFINITY, f64::INFINITY) && !agree(f64::INFINITY, f64::NEG_INFINITY));
        assert!(!agree(f64::INFINITY, 1e308));
        assert!(!agree(2840.0532525903545, 2840.0532495151274));
        assert!(checksums_agree(2840.0532525903545, 2840.0532495151274, Element::Float));
        assert!(!checksums_agree(1.0, 1.001, Element::Float));
    }
}
