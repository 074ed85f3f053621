//! Problem sizes: the values given to a SCoP's parameters.
//!
//! Users name sizes the way they think of them (`NI=1500`), while a SCoP's
//! parameters are whatever the source wrote (`ni`, `_PB_NI`, `N`). Resolution
//! accepts the exact name, the name with PolyBench's `_PB_` prefix, and, when
//! unambiguous, either one case-insensitively, so one `--size` string works
//! on the paper kernels (`ni`) and on PolyBench files (`_PB_NI`) alike.

use std::fmt;

/// Values for every parameter of a SCoP, in the SCoP's parameter order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sizes {
    pub values: Vec<(String, i64)>,
}

impl Sizes {
    /// Parses `NI=1500,NJ=1300` (names as the user wrote them, not yet resolved).
    pub fn parse_pairs(text: &str) -> Result<Vec<(String, i64)>, String> {
        text.split(',')
            .filter(|p| !p.trim().is_empty())
            .map(|p| {
                let (k, v) = p.split_once('=').ok_or_else(|| format!("--size: '{p}' is not NAME=VALUE"))?;
                let v: i64 = v.trim().parse().map_err(|_| format!("--size: '{v}' is not an integer (in '{p}')"))?;
                if v < 1 {
                    return Err(format!("--size: {k} must be at least 1"));
                }
                Ok((k.trim().to_string(), v))
            })
            .collect()
    }

    /// Matches user-named `pairs` to the SCoP's `params`: every parameter
    /// needs a value and every given name must match a parameter.
    pub fn resolve(params: &[String], pairs: &[(String, i64)]) -> Result<Sizes, String> {
        let mut values: Vec<Option<i64>> = vec![None; params.len()];
        for (name, v) in pairs {
            let idx = match_param(params, name).ok_or_else(|| {
                format!("--size: unknown parameter '{name}' (the SCoP's parameters are {})", list(params))
            })?;
            values[idx] = Some(*v);
        }
        let missing: Vec<String> =
            params.iter().zip(&values).filter(|(_, v)| v.is_none()).map(|(p, _)| p.clone()).collect();
        if !missing.is_empty() {
            return Err(format!("--size: no value for {} (give e.g. --size {}=1500)", list(&missing), missing[0]));
        }
        Ok(Sizes { values: params.iter().cloned().zip(values.into_iter().map(|v| v.unwrap_or(1))).collect() })
    }

    /// `--size` text resolved against a SCoP's parameters in one step.
    pub fn parse(params: &[String], text: &str) -> Result<Sizes, String> {
        Sizes::resolve(params, &Sizes::parse_pairs(text)?)
    }

    /// ISL parameter constraints: `[NI, NJ] -> { : NI = 1500 and NJ = 1300 }`.
    pub fn isl_params(&self) -> String {
        let names: Vec<&str> = self.values.iter().map(|(n, _)| n.as_str()).collect();
        let eqs: Vec<String> = self.values.iter().map(|(n, v)| format!("{n} = {v}")).collect();
        if eqs.is_empty() {
            "{ : }".to_string()
        } else {
            format!("[{}] -> {{ : {} }}", names.join(", "), eqs.join(" and "))
        }
    }

    pub fn get(&self, name: &str) -> Option<i64> {
        self.values.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
    }
}

impl fmt::Display for Sizes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.values.iter().map(|(n, v)| format!("{n}={v}")).collect();
        f.write_str(&parts.join(","))
    }
}

/// A parameter's name and its inclusive range.
pub type NamedRange = (String, (i64, i64));

/// Where each parameter's problem sizes are drawn from when collecting:
/// `--range 64..4096,TSTEPS=10..200` on the command line, over ranges a
/// kernel file declares in a `tss-range:` line (a stencil's time steps, a
/// convolution's window), over one range for every other parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranges {
    /// Inclusive range of every parameter not named below.
    pub default: (i64, i64),
    /// Per-parameter ranges, resolved like `--size` names.
    pub named: Vec<NamedRange>,
    /// Probability that one parameter of an instance is drawn from its range
    /// below [`SKINNY`] instead (a skinny shape such as a 64-row matrix), when
    /// some parameter's range reaches both sides of it.
    pub skinny: f64,
}

/// The largest extent a skinny instance has in one dimension.
pub const SKINNY: i64 = 128;

impl Ranges {
    /// One range for every parameter (the paper's `1024..2048`).
    pub fn all(lo: i64, hi: i64) -> Ranges {
        Ranges { default: (lo, hi), named: Vec::new(), skinny: 0.0 }
    }

    /// Parses `LO..HI`, `NAME=LO..HI` or a comma-separated mix; a bare range
    /// replaces `default`.
    pub fn parse(text: &str, default: (i64, i64)) -> Result<Ranges, String> {
        let mut r = Ranges { default, named: Vec::new(), skinny: 0.0 };
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match part.split_once('=') {
                Some((name, range)) => r.named.push((name.trim().to_string(), parse_range(range, part)?)),
                None => r.default = parse_range(part, part)?,
            }
        }
        Ok(r)
    }

    /// The `tss-range:` lines of a kernel file (named ranges only), e.g.
    /// ` * tss-range: TSTEPS=4..64, R=1..7` in its header comment.
    pub fn declared_in(src: &str) -> Result<Vec<NamedRange>, String> {
        let mut out = Vec::new();
        for (k, line) in src.lines().enumerate() {
            if let Some((_, rest)) = line.split_once("tss-range:") {
                let r = Ranges::parse(rest.trim().trim_end_matches("*/"), (1, 1))
                    .map_err(|e| format!("line {}: {e}", k + 1))?;
                out.extend(r.named);
            }
        }
        Ok(out)
    }

    /// These ranges with `declared` (a file's) filling in the parameters
    /// this one does not name: the command line wins over the file.
    pub fn over(&self, declared: &[NamedRange]) -> Ranges {
        let mut r = self.clone();
        for (name, range) in declared {
            if !r.named.iter().any(|(n, _)| same_param(n, name)) {
                r.named.push((name.clone(), *range));
            }
        }
        r
    }

    /// The range of each of `params`, in order.
    pub fn of(&self, params: &[String]) -> Vec<(i64, i64)> {
        let mut out = vec![self.default; params.len()];
        for (name, range) in &self.named {
            if let Some(i) = match_param(params, name) {
                out[i] = *range;
            }
        }
        out
    }

    /// One draw for `params`: log-uniform in each range (a size class is as
    /// likely as the next: 64..128 as often as 2048..4096), and with
    /// probability `skinny` one parameter drawn below [`SKINNY`].
    pub fn draw(&self, params: &[String], rng: &mut impl rand::Rng) -> Sizes {
        let mut ranges = self.of(params);
        let thin: Vec<usize> = (0..ranges.len()).filter(|&i| ranges[i].0 <= SKINNY && ranges[i].1 > SKINNY).collect();
        if !thin.is_empty() && rng.random_bool(self.skinny.clamp(0.0, 1.0)) {
            let i = thin[rng.random_range(0..thin.len())];
            ranges[i].1 = SKINNY;
        }
        let values = ranges.iter().map(|&(lo, hi)| log_uniform(lo, hi, rng));
        Sizes { values: params.iter().cloned().zip(values).collect() }
    }

    /// Names that match none of `params` of any kernel: a typo to report.
    pub fn unmatched<'a>(&'a self, param_lists: &[&[String]]) -> Vec<&'a str> {
        self.named
            .iter()
            .filter(|(n, _)| !param_lists.iter().any(|ps| match_param(ps, n).is_some()))
            .map(|(n, _)| n.as_str())
            .collect()
    }
}

impl fmt::Display for Ranges {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.default.0, self.default.1)?;
        for (n, (lo, hi)) in &self.named {
            write!(f, ",{n}={lo}..{hi}")?;
        }
        Ok(())
    }
}

/// `LO..HI` with 1 <= LO <= HI; `part` names the text in errors.
fn parse_range(range: &str, part: &str) -> Result<(i64, i64), String> {
    let bad = || format!("--range: '{part}' is not LO..HI or NAME=LO..HI with 1 <= LO <= HI");
    let (lo, hi) = range.split_once("..").ok_or_else(bad)?;
    let (lo, hi): (i64, i64) = (lo.trim().parse().map_err(|_| bad())?, hi.trim().parse().map_err(|_| bad())?);
    if lo < 1 || hi < lo {
        return Err(bad());
    }
    Ok((lo, hi))
}

/// An integer in `lo..=hi` whose logarithm is uniform.
fn log_uniform(lo: i64, hi: i64, rng: &mut impl rand::Rng) -> i64 {
    if lo >= hi {
        return lo;
    }
    let x = rng.random_range((lo as f64).ln()..((hi + 1) as f64).ln()).exp();
    (x.floor() as i64).clamp(lo, hi)
}

fn match_param(params: &[String], name: &str) -> Option<usize> {
    let pb = format!("_PB_{name}");
    if let Some(i) = params.iter().position(|p| p == name || *p == pb) {
        return Some(i);
    }
    let folded: Vec<usize> = (0..params.len())
        .filter(|&i| params[i].eq_ignore_ascii_case(name) || params[i].eq_ignore_ascii_case(&pb))
        .collect();
    (folded.len() == 1).then(|| folded[0])
}

/// Whether two range names mean the same parameter: equal up to case and
/// PolyBench's `_PB_` prefix (a file's `_PB_N` is the command line's `N`).
fn same_param(a: &str, b: &str) -> bool {
    let bare = |s: &str| s.strip_prefix("_PB_").unwrap_or(s).to_ascii_lowercase();
    bare(a) == bare(b)
}

fn list(names: &[String]) -> String {
    if names.is_empty() { "none".to_string() } else { names.join(", ") }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;

    fn p(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn resolves_polybench_and_plain_names() {
        let pairs = Sizes::parse_pairs("NI=1500, NJ=1300").unwrap();
        let s = Sizes::resolve(&p(&["_PB_NI", "_PB_NJ"]), &pairs).unwrap();
        assert_eq!(s.to_string(), "_PB_NI=1500,_PB_NJ=1300");
        let s = Sizes::resolve(&p(&["ni", "nj"]), &pairs).unwrap();
        assert_eq!(s.get("nj"), Some(1300));
        assert_eq!(s.isl_params(), "[ni, nj] -> { : ni = 1500 and nj = 1300 }");
    }

    #[test]
    fn ranges_parse_merge_and_draw() {
        let r = Ranges::parse("64..4096, TSTEPS=10..200", (1024, 2048)).unwrap();
        assert_eq!(r.default, (64, 4096));
        assert_eq!(r.to_string(), "64..4096,TSTEPS=10..200");
        let file = Ranges::declared_in("/* x\n * tss-range: TSTEPS=2..8, R=1..7 */\n").unwrap();
        assert_eq!(file, vec![("TSTEPS".into(), (2, 8)), ("R".into(), (1, 7))]);
        let merged = r.over(&file);
        let params = p(&["_PB_N", "_PB_TSTEPS", "r"]);
        assert_eq!(merged.of(&params), vec![(64, 4096), (10, 200), (1, 7)], "the command line wins");
        let file_pb = Ranges::declared_in(" * tss-range: _PB_TSTEPS=2..8\n").unwrap();
        assert_eq!(r.over(&file_pb).named.len(), 1, "_PB_TSTEPS is the command line's TSTEPS");
        assert_eq!(merged.unmatched(&[&params[..]]), Vec::<&str>::new());
        assert_eq!(Ranges::parse("NX=1..2", (1, 1)).unwrap().unmatched(&[&params[..]]), vec!["NX"]);
        assert!(Ranges::parse("N=0..5", (1, 1)).is_err());
        assert!(Ranges::parse("N=9..5", (1, 1)).is_err());
        assert!(Ranges::declared_in("// tss-range: N=x").unwrap_err().starts_with("line 1:"));

        // Log-uniform: each octave of 64..4096 gets about a sixth of the draws.
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let mut below_128 = 0;
        let mut skinny = 0;
        let r = Ranges { skinny: 0.5, ..Ranges::all(64, 4096) };
        for _ in 0..3000 {
            let s = Ranges::all(64, 4096).draw(&p(&["N"]), &mut rng);
            assert!((64..=4096).contains(&s.values[0].1));
            below_128 += usize::from(s.values[0].1 < 128);
            let s = r.draw(&p(&["M", "N"]), &mut rng);
            skinny += usize::from(s.values.iter().any(|(_, v)| *v <= SKINNY));
        }
        assert!((400..600).contains(&below_128), "{below_128} of 3000 in the first octave");
        // Half forced skinny, plus the unforced draws that land there anyway.
        assert!((1800..2300).contains(&skinny), "{skinny} of 3000 skinny");
    }

    #[test]
    fn unknown_and_missing_names_are_errors() {
        let e = Sizes::resolve(&p(&["ni", "nj"]), &[("NX".into(), 5)]).unwrap_err();
        assert!(e.contains("unknown parameter 'NX'") && e.contains("ni, nj"), "{e}");
        let e = Sizes::resolve(&p(&["ni", "nj"]), &[("ni".into(), 5)]).unwrap_err();
        assert!(e.contains("no value for nj"), "{e}");
        assert!(Sizes::parse_pairs("NI=0").is_err());
        assert!(Sizes::parse_pairs("NI").is_err());
        // Ambiguous case-insensitive match is refused rather than guessed.
        assert!(Sizes::resolve(&p(&["n", "N"]), &[("n".into(), 1), ("N".into(), 2)]).is_ok());
        assert!(match_param(&p(&["nI", "Ni"]), "NI").is_none());
    }
}
