//! The machine tss runs on: cache geometry (for candidate tiles and
//! working-set features) and identity (recorded with data and models so a
//! model is not silently used on a machine it never saw).

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
    fn detected_caches_are_plausible() {
        let c = Caches::detect();
        assert!(c.l1d >= 4096 && c.l2 >= c.l1d && c.line.is_power_of_two(), "{c:?}");
    }
}
