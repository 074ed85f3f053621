//! Scalar replacement in the innermost loop of a register tile.
//!
//! After unroll-and-jam, gemm's innermost loop reads `A[i+o][k+p]` for every
//! copy: values invariant in the loop. GCC cannot keep them in registers,
//! because the loop's stores (`C[..][j]`) might alias them, so it reloads
//! and re-broadcasts each one on every iteration. tss assumes distinct
//! arrays do not overlap (as Pluto and Polly do, and as every reordering it
//! makes already requires), so it can load them once before the loop.
//!
//! The pass works on the printed body of the innermost loop: array
//! references are `name[..][..]` chains. A reference is hoisted when its
//! array is not written in the loop, and its subscripts read neither the
//! loop's iterator nor any name the loop writes. Bodies with conditions are
//! left alone: a read under a guard may be out of bounds without it.
//!
//! The written elements (`C[i+o][j]`, updated once per copy of `k`) are
//! then kept in locals for one iteration: loaded at its start, stored at its
//! end ([`keep_written_in_locals`]). Together these took gcc's gemm from 14.4
//! to 18.2 GF/s with a 4x4 register tile on Zen 3 (`scripts/peers.py`).

use std::collections::{BTreeMap, BTreeSet};

/// Invariant reads moved out of a loop body.
#[derive(Debug, PartialEq)]
pub struct Hoisted {
    /// `(local, reference)` pairs, in first-use order.
    pub locals: Vec<(String, String)>,
    /// The body with every hoisted reference replaced by its local.
    pub body: String,
}

/// One array reference in the text: byte span, array name, full text.
pub(super) struct Ref {
    pub start: usize,
    pub end: usize,
    pub array: String,
}

/// Hoists the reads of `body` that are invariant in the loop over
/// `iterator`, given the names `written` in the loop (arrays and scalars).
/// `None` when nothing can be hoisted.
pub fn hoist_invariant_reads(body: &str, iterator: &str, written: &BTreeSet<String>) -> Option<Hoisted> {
    if has_condition(body) {
        return None;
    }
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    let mut locals = Vec::new();
    let mut out = String::new();
    let mut last = 0;
    for r in references(body) {
        let text = &body[r.start..r.end];
        let reads_loop_state = identifiers(&text[r.array.len()..]).any(|w| w == iterator || written.contains(w));
        if written.contains(&r.array) || reads_loop_state {
            continue;
        }
        let local = names.entry(text.to_string()).or_insert_with(|| {
            let name = format!("tss_r{}", locals.len());
            locals.push((name.clone(), text.to_string()));
            name
        });
        out.push_str(&body[last..r.start]);
        out.push_str(local);
        last = r.end;
    }
    if locals.is_empty() {
        return None;
    }
    out.push_str(&body[last..]);
    Some(Hoisted { locals, body: out })
}

/// The written elements of a loop body kept in locals
/// ([`keep_written_in_locals`]).
#[derive(Debug, PartialEq)]
pub struct Locals {
    /// Declarations of the locals, each loaded from its element.
    pub decls: Vec<String>,
    /// The body with the elements replaced by their locals.
    pub body: String,
    /// Stores of the locals back to their elements.
    pub stores: Vec<String>,
    /// A condition, invariant in the loop, under which no other reference
    /// of a written array names a kept element (`i != k` for trmm's
    /// `B[i][j]` and `B[k][j]`); `None` when that holds everywhere.
    pub guard: Option<String>,
}

/// Keeps each element written in one iteration of `body` (of the loop over
/// `iterator`) in a local: a load before the body where it may be read
/// first, a store after it. Only for arrays whose references in the body
/// name distinct elements when their texts differ: two references are
/// apart when some subscript differs by a nonzero constant, and otherwise
/// when they differ only in subscripts the loop does not change, which the
/// returned guard then compares at run time.
pub fn keep_written_in_locals(body: &str, written: &BTreeSet<String>, iterator: &str) -> Option<Locals> {
    if has_condition(body) {
        return None;
    }
    let refs = references(body);
    let text = |r: &Ref| &body[r.start..r.end];
    let invariant = |t: &str| identifiers(t).all(|w| w != iterator && !written.contains(w));
    let mut guards = Vec::new();
    let mut distinct_texts = |array: &str| -> Option<Vec<String>> {
        let mut texts: Vec<String> = refs.iter().filter(|r| r.array == array).map(|r| text(r).to_string()).collect();
        texts.sort();
        texts.dedup();
        let subs: Vec<Vec<Linear>> = texts.iter().map(|t| subscripts(&t[array.len()..])).collect::<Option<_>>()?;
        for a in 0..subs.len() {
            for b in a + 1..subs.len() {
                if subs[a].len() != subs[b].len() {
                    return None;
                }
                if subs[a].iter().zip(&subs[b]).any(|(x, y)| x.differs_by_constant(y)) {
                    continue;
                }
                let (ta, tb) = (subscript_texts(&texts[a][array.len()..]), subscript_texts(&texts[b][array.len()..]));
                let differ: Vec<usize> = (0..subs[a].len()).filter(|&k| subs[a][k] != subs[b][k]).collect();
                if differ.is_empty() || differ.iter().any(|&k| !invariant(ta[k]) || !invariant(tb[k])) {
                    return None;
                }
                let test: Vec<String> = differ.iter().map(|&k| format!("{} != {}", ta[k], tb[k])).collect();
                guards.push(if test.len() == 1 { test[0].clone() } else { format!("({})", test.join(" || ")) });
            }
        }
        Some(texts)
    };
    let mut locals: BTreeMap<String, String> = BTreeMap::new();
    let mut order = Vec::new();
    for array in written {
        for t in distinct_texts(array).unwrap_or_default() {
            if refs.iter().any(|r| text(r) == t && assigned(&body[r.end..])) {
                let name = format!("tss_w{}", order.len());
                locals.insert(t.clone(), name);
                order.push(t);
            }
        }
    }
    if order.is_empty() {
        return None;
    }
    let mut out = String::new();
    let mut last = 0;
    for r in &refs {
        if let Some(local) = locals.get(text(r)) {
            out.push_str(&body[last..r.start]);
            out.push_str(local);
            last = r.end;
        }
    }
    out.push_str(&body[last..]);
    // Always loaded: even `X = f(X)` reads X before it stores.
    let decls = order.iter().map(|t| format!("__typeof__({t}) {} = {t};", locals[t])).collect();
    let stores = order.iter().map(|t| format!("{t} = {};", locals[t])).collect();
    let guard = (!guards.is_empty()).then(|| guards.join(" && "));
    Some(Locals { decls, body: out, stores, guard })
}

/// Whether the text after a reference assigns to it (`=`, `op=`, `++`, `--`).
fn assigned(after: &str) -> bool {
    let a = after.trim_start();
    (a.starts_with('=') && !a.starts_with("=="))
        || ["+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--"].iter().any(|op| a.starts_with(op))
}

/// `a1*x1 + ... + c` of a subscript, when it is that simple.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Linear {
    pub terms: BTreeMap<String, i64>,
    pub constant: i64,
}

impl Linear {
    pub(super) fn differs_by_constant(&self, other: &Linear) -> bool {
        self.terms == other.terms && self.constant != other.constant
    }
}

/// The subscripts of a `[..][..]` chain as linear forms (`None` if any is not).
pub(super) fn subscripts(chain: &str) -> Option<Vec<Linear>> {
    let b = chain.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'[' {
            i += 1;
            continue;
        }
        let close = matching(b, i)?;
        out.push(linear(&chain[i + 1..close])?);
        i = close + 1;
    }
    Some(out)
}

/// The subscripts of a `[..][..]` chain as text.
pub(super) fn subscript_texts(chain: &str) -> Vec<&str> {
    let b = chain.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match (b[i] == b'[').then(|| matching(b, i)).flatten() {
            Some(close) => {
                out.push(&chain[i + 1..close]);
                i = close + 1;
            }
            None => i += 1,
        }
    }
    out
}

/// Parses `+`, `-`, `*` by a constant, parentheses, names and integers.
pub(super) fn linear(text: &str) -> Option<Linear> {
    let tokens: Vec<String> = {
        let mut t = Vec::new();
        let mut cur = String::new();
        for c in text.chars() {
            if c.is_ascii_alphanumeric() || c == '_' {
                cur.push(c);
            } else {
                if !cur.is_empty() {
                    t.push(std::mem::take(&mut cur));
                }
                if !c.is_whitespace() {
                    t.push(c.to_string());
                }
            }
        }
        if !cur.is_empty() {
            t.push(cur);
        }
        t
    };
    let mut pos = 0;
    let l = sum(&tokens, &mut pos)?;
    (pos == tokens.len()).then_some(l)
}

fn sum(t: &[String], pos: &mut usize) -> Option<Linear> {
    let mut acc = product(t, pos)?;
    while let Some(op) = t.get(*pos).filter(|s| *s == "+" || *s == "-").cloned() {
        *pos += 1;
        let rhs = product(t, pos)?;
        let sign = if op == "+" { 1 } else { -1 };
        for (v, c) in rhs.terms {
            *acc.terms.entry(v).or_insert(0) += sign * c;
        }
        acc.constant += sign * rhs.constant;
        acc.terms.retain(|_, c| *c != 0);
    }
    Some(acc)
}

fn product(t: &[String], pos: &mut usize) -> Option<Linear> {
    let mut acc = atom(t, pos)?;
    while t.get(*pos).is_some_and(|s| s == "*") {
        *pos += 1;
        let rhs = atom(t, pos)?;
        let (k, mut l) = match (acc.terms.is_empty(), rhs.terms.is_empty()) {
            (true, _) => (acc.constant, rhs),
            (_, true) => (rhs.constant, acc),
            _ => return None,
        };
        l.terms.values_mut().for_each(|c| *c *= k);
        l.constant *= k;
        l.terms.retain(|_, c| *c != 0);
        acc = l;
    }
    Some(acc)
}

fn atom(t: &[String], pos: &mut usize) -> Option<Linear> {
    let tok = t.get(*pos)?.clone();
    *pos += 1;
    if tok == "(" {
        let l = sum(t, pos)?;
        (t.get(*pos)? == ")").then_some(())?;
        *pos += 1;
        return Some(l);
    }
    if tok == "-" {
        let mut l = atom(t, pos)?;
        l.terms.values_mut().for_each(|c| *c = -*c);
        l.constant = -l.constant;
        return Some(l);
    }
    if let Ok(n) = tok.parse::<i64>() {
        return Some(Linear { terms: BTreeMap::new(), constant: n });
    }
    if tok.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && t.get(*pos).is_none_or(|s| s != "(") {
        return Some(Linear { terms: BTreeMap::from([(tok, 1)]), constant: 0 });
    }
    None
}

/// Whether C text holds a condition (`if`, `?:`, `&&`, `||`): reads under it
/// may not be valid outside it.
fn has_condition(text: &str) -> bool {
    identifiers(text).any(|w| w == "if" || w == "else")
        || text.contains('?')
        || text.contains("&&")
        || text.contains("||")
}

/// The identifiers of C text, in order.
pub(super) fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_'))
}

/// Every outermost `name[..]...[..]` chain of `text` (not struct members).
pub(super) fn references(text: &str) -> Vec<Ref> {
    let b = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut refs = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !(b[i].is_ascii_alphabetic() || b[i] == b'_') || (i > 0 && (ident(b[i - 1]) || b[i - 1] == b'.')) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && ident(b[i]) {
            i += 1;
        }
        let array = &text[start..i];
        let member = start >= 2 && &text[start - 2..start] == "->";
        let mut end = i;
        while let Some(close) = (end < b.len() && b[end] == b'[').then(|| matching(b, end)).flatten() {
            end = close + 1;
        }
        if end > i && !member {
            refs.push(Ref { start, end, array: array.to_string() });
            i = end;
        }
    }
    refs
}

/// Index of the `]` closing the `[` at `open`.
fn matching(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0;
    for (k, &c) in b.iter().enumerate().skip(open) {
        match c {
            b'[' => depth += 1,
            b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn hoists_reads_invariant_in_the_loop() {
        let body = "C[i][j] += alpha * A[i][k] * B[k][j];\nC[(i + 1)][j] += alpha * A[(i + 1)][k] * B[k][j];\n";
        let h = hoist_invariant_reads(body, "j", &set(&["C"])).unwrap();
        assert_eq!(h.locals, vec![("tss_r0".into(), "A[i][k]".into()), ("tss_r1".into(), "A[(i + 1)][k]".into())]);
        assert_eq!(h.body, "C[i][j] += alpha * tss_r0 * B[k][j];\nC[(i + 1)][j] += alpha * tss_r1 * B[k][j];\n");
    }

    #[test]
    fn leaves_written_arrays_loop_dependent_reads_and_conditions() {
        // A is written: its invariant-looking read may change inside the loop.
        assert_eq!(hoist_invariant_reads("A[i][j] = A[i][k] + B[j];", "j", &set(&["A"])), None);
        // t is written in the loop: A[t] is not invariant.
        assert_eq!(hoist_invariant_reads("t = x[j];\ny[j] = A[t];", "j", &set(&["t", "y"])), None);
        // Under a guard the read may be out of bounds.
        assert_eq!(hoist_invariant_reads("if (i > 0) y[j] = A[i - 1];", "j", &set(&["y"])), None);
        assert_eq!(hoist_invariant_reads("y[j] = i > 0 ? A[i - 1] : 0;", "j", &set(&["y"])), None);
    }

    #[test]
    fn written_elements_stay_in_locals_for_one_iteration() {
        let body = "C[i][j] += x * B[k][j];\nC[(i + 1)][j] += y * B[k][j];\nC[i][j] += z * B[(k + 1)][j];\n";
        let Locals { decls, body: out, stores, guard } = keep_written_in_locals(body, &set(&["C"]), "j").unwrap();
        assert_eq!(guard, None);
        assert_eq!(
            decls,
            vec!["__typeof__(C[(i + 1)][j]) tss_w0 = C[(i + 1)][j];", "__typeof__(C[i][j]) tss_w1 = C[i][j];"]
        );
        assert_eq!(out, "tss_w1 += x * B[k][j];\ntss_w0 += y * B[k][j];\ntss_w1 += z * B[(k + 1)][j];\n");
        assert_eq!(stores, vec!["C[(i + 1)][j] = tss_w0;", "C[i][j] = tss_w1;"]);
        // `B = f(B)` reads B before it stores: the local starts loaded (the fuzzer found this).
        let decls = keep_written_in_locals("B[j][i] = 0.5 * B[j][i];", &set(&["B"]), "i").unwrap().decls;
        assert_eq!(decls, vec!["__typeof__(B[j][i]) tss_w0 = B[j][i];"]);
    }

    #[test]
    fn references_that_may_meet_keep_their_memory_accesses() {
        // C[i][j] and C[j][i] meet where i == j, which the loop over j reaches.
        assert_eq!(keep_written_in_locals("C[i][j] += C[j][i];", &set(&["C"]), "j"), None);
        // Not a linear subscript: cannot tell.
        assert_eq!(keep_written_in_locals("C[i / 2][j] += C[i][j];", &set(&["C"]), "j"), None);
        assert_eq!(keep_written_in_locals("if (i) C[i][j] += 1;", &set(&["C"]), "j"), None);
        // The same text twice names one element whatever the guard.
        assert_eq!(keep_written_in_locals("C[i][j] += C[(i)][j];", &set(&["C"]), "j"), None);
        assert_eq!(linear("(i + 1) - 2 * (j - 3)").map(|l| l.constant), Some(7));
        assert_eq!(linear("tss_min(i, 3)"), None);
        // Only assigned elements move: C[(i + 1)][j] is only read here.
        let Locals { body: out, stores, .. } =
            keep_written_in_locals("C[i][j] = C[(i + 1)][j] - 1.0;", &set(&["C"]), "j").unwrap();
        assert_eq!((out.as_str(), stores), ("tss_w0 = C[(i + 1)][j] - 1.0;", vec!["C[i][j] = tss_w0;".to_string()]));
    }

    #[test]
    fn references_apart_only_outside_the_loop_are_guarded() {
        // trmm's register tile: rows i, i + 1 written, rows k, k + 1 read.
        let body = "B[i][j] += a * B[k][j];\nB[(i + 1)][j] += b * B[(k + 1)][j];\n";
        let l = keep_written_in_locals(body, &set(&["B"]), "j").unwrap();
        assert_eq!(l.body, "tss_w1 += a * B[k][j];\ntss_w0 += b * B[(k + 1)][j];\n");
        let guard = l.guard.unwrap();
        for (a, b) in [("i", "k"), ("(i + 1)", "(k + 1)"), ("i", "(k + 1)"), ("(i + 1)", "k")] {
            let (ab, ba) = (format!("{a} != {b}"), format!("{b} != {a}"));
            assert!(guard.split(" && ").any(|g| g == ab || g == ba), "{ab} missing from {guard}");
        }
        assert_eq!(guard.split(" && ").count(), 4);
        // A subscript the loop changes cannot be compared once before it.
        assert_eq!(keep_written_in_locals("B[i][j] += B[k][j + k];", &set(&["B"]), "j"), None);
        assert_eq!(keep_written_in_locals("B[i][j] += B[j][j];", &set(&["B"]), "j"), None);
    }

    #[test]
    fn names_are_whole_identifiers() {
        // BA[i] is not A[i]; s.A[i] and p->A[i] are members, not the array A.
        let h = hoist_invariant_reads("y[j] = BA[i] + A[i] + s.A[i] + p->A[i];", "j", &set(&["y"])).unwrap();
        assert_eq!(h.locals, vec![("tss_r0".into(), "BA[i]".into()), ("tss_r1".into(), "A[i]".into())]);
        assert_eq!(h.body, "y[j] = tss_r0 + tss_r1 + s.A[i] + p->A[i];");
        // Nested subscripts: the outer reference moves as a whole only when invariant.
        assert_eq!(hoist_invariant_reads("y[j] = A[idx[j]];", "j", &set(&["y"])), None);
    }
}
