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

fn list(names: &[String]) -> String {
    if names.is_empty() { "none".to_string() } else { names.join(", ") }
}

#[cfg(test)]
mod tests {
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
