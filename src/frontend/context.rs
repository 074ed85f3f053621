//! What the code around a SCoP says about its loop iterators.
//!
//! The tiled code leaves the SCoP's iterators with other values than the
//! original loops do (C leaves `i == N` after `for (i = 0; i < N; i++)`), so:
//! - an iterator the enclosing function reads after the SCoP, before
//!   assigning it, makes the SCoP refused ([`first_read_after`]);
//! - an iterator the function declares as a plain `int` is reused by the
//!   tiled code rather than shadowed, so that the function's declaration
//!   stays used and `-Wall` stays quiet ([`ints_in_scope`]).
//!
//! Only the function's own text is scanned, token by token, with a few rules
//! that err on the side of refusing: a use counts as a write only when it is
//! an unconditional assignment `i = e;` or `for (i = e; ...` in the block the
//! scan has reached, with `e` not reading `i`.

use std::collections::{BTreeMap, BTreeSet};

use super::lexer::{Tok, Token, lex_outside};

/// Storage classes that may precede a declaration's type.
const STORAGE: [&str; 4] = ["register", "auto", "static", "const"];
/// Words that start a statement but not a declaration.
const NOT_TYPES: [&str; 10] = ["return", "goto", "case", "else", "do", "sizeof", "break", "continue", "if", "while"];

fn punct(t: Option<&Token>, p: &str) -> bool {
    matches!(t.map(|t| &t.tok), Some(Tok::Punct(q)) if *q == p)
}

fn ident(t: Option<&Token>) -> Option<&str> {
    match t.map(|t| &t.tok) {
        Some(Tok::Ident(s)) => Some(s),
        _ => None,
    }
}

/// Whether token `k` starts a statement: first of the scan, or after `;`,
/// `{` or `}`.
fn statement_start(toks: &[Token], k: usize) -> bool {
    k == 0 || [";", "{", "}"].iter().any(|p| punct(toks.get(k - 1), p))
}

/// A declaration starting at statement start `k`: its declared names, each
/// with whether it is a plain `int` variable (no pointer, no array), and the
/// index of its closing `;`. `None` when the statement is not a declaration.
fn declaration(toks: &[Token], k: usize) -> Option<(Vec<(String, bool)>, usize)> {
    let mut words = Vec::new();
    let mut j = k;
    while let Some(w) = ident(toks.get(j)) {
        words.push(w);
        j += 1;
    }
    let first = *words.first()?;
    if NOT_TYPES.contains(&first) || first == "typedef" {
        return None;
    }
    // `T a ...`: the last word is the first declarator's name unless a `*` follows the type.
    let (ty, start) = if punct(toks.get(j), "*") {
        (&words[..], j)
    } else if words.len() >= 2 && [";", ",", "=", "["].iter().any(|p| punct(toks.get(j), p)) {
        (&words[..words.len() - 1], j - 1)
    } else {
        return None;
    };
    let plain_int = ty.iter().filter(|w| !STORAGE.contains(w)).eq(["int"].iter());
    let mut names = Vec::new();
    let mut j = start;
    loop {
        let mut pointer = false;
        while punct(toks.get(j), "*") {
            pointer = true;
            j += 1;
        }
        let name = ident(toks.get(j))?.to_string();
        j += 1;
        let array = punct(toks.get(j), "[");
        // Skip the rest of this declarator: subscripts and initialiser.
        let mut depth = 0i32;
        while let Some(t) = toks.get(j) {
            match &t.tok {
                Tok::Punct("(" | "[" | "{") => depth += 1,
                Tok::Punct(")" | "]" | "}") => depth -= 1,
                Tok::Punct("," | ";") if depth == 0 => break,
                _ => {}
            }
            j += 1;
        }
        names.push((name, plain_int && !pointer && !array));
        if punct(toks.get(j), ";") {
            return Some((names, j));
        }
        toks.get(j)?;
        j += 1;
    }
}

/// The variables visible at byte `at` that a function declares as plain
/// `int` (file-scope variables are left out: other functions may read
/// them), and the number of blocks open at `at`.
pub fn ints_in_scope(src: &str, at: usize) -> (BTreeSet<String>, usize) {
    let toks = lex_outside(src, 0, at);
    let mut scopes: Vec<BTreeMap<String, bool>> = vec![BTreeMap::new()];
    let mut k = 0;
    while k < toks.len() {
        if punct(toks.get(k), "{") {
            scopes.push(BTreeMap::new());
        } else if punct(toks.get(k), "}") && scopes.len() > 1 {
            scopes.pop();
        } else if statement_start(&toks, k)
            && let Some((names, _)) = declaration(&toks, k)
        {
            scopes.last_mut().expect("the file scope is never popped").extend(names);
        }
        k += 1;
    }
    let mut visible: BTreeMap<&String, bool> = BTreeMap::new();
    for (depth, scope) in scopes.iter().enumerate() {
        for (name, &int) in scope {
            visible.insert(name, int && depth > 0);
        }
    }
    let ints = visible.into_iter().filter(|&(_, int)| int).map(|(n, _)| n.clone()).collect();
    (ints, scopes.len() - 1)
}

/// How long a declaration after the SCoP hides the SCoP's variable.
enum Until {
    /// While the scan stays at this block depth or deeper.
    Depth(i64),
    /// Up to this token (a `for` loop's own iterator).
    Token(usize),
}

/// The first token after byte `from` (the end of a SCoP, inside `blocks`
/// open blocks) that reads one of `names` before the function assigns it,
/// up to the end of the function.
pub fn first_read_after(src: &str, from: usize, blocks: usize, names: &BTreeSet<String>) -> Option<Token> {
    let toks = lex_outside(src, from, src.len());
    let mut pending = names.clone();
    let mut shadows: Vec<(String, Until)> = Vec::new();
    // Depth relative to the SCoP's block; `floor` is the shallowest reached,
    // the block whose statements run unconditionally after the SCoP.
    let (mut depth, mut floor) = (0i64, 0i64);
    for (k, t) in toks.iter().enumerate() {
        shadows.retain(|(_, u)| match *u {
            Until::Depth(d) => depth >= d,
            Until::Token(e) => k <= e,
        });
        if statement_start(&toks, k)
            && let Some((decl, _)) = declaration(&toks, k)
        {
            shadows.extend(decl.into_iter().map(|(n, _)| (n, Until::Depth(depth))));
        }
        match &t.tok {
            Tok::Punct("{") => depth += 1,
            Tok::Punct("}") => {
                depth -= 1;
                floor = floor.min(depth);
                if depth + blocks as i64 <= 0 {
                    return None; // the function's closing brace
                }
            }
            Tok::Ident(w) if w == "for" && punct(toks.get(k + 1), "(") => {
                if let Some((decl, _)) = declaration(&toks, k + 2) {
                    let end = for_end(&toks, k + 1);
                    shadows.extend(decl.into_iter().map(|(n, _)| (n, Until::Token(end))));
                }
            }
            Tok::Ident(name) if pending.contains(name) => {
                let member = k > 0 && (punct(toks.get(k - 1), ".") || punct(toks.get(k - 1), "->"));
                if member || shadows.iter().any(|(n, _)| n == name) {
                    continue;
                }
                match assignment(&toks, k, name) {
                    // Runs whenever the code after the SCoP does: the SCoP's value is dead.
                    Some(Assign::Statement) if depth == floor => {
                        pending.remove(name);
                        continue;
                    }
                    Some(Assign::ForInit(_)) if depth == floor && statement_start(&toks, k - 2) => {
                        pending.remove(name);
                        continue;
                    }
                    // Conditional: the value is set for the loop's own uses only.
                    Some(Assign::ForInit(end)) => {
                        shadows.push((name.clone(), Until::Token(end)));
                        continue;
                    }
                    Some(Assign::Statement) => continue,
                    None => {}
                }
                return Some(t.clone());
            }
            _ => {}
        }
    }
    None
}

/// The last token of the `for` statement whose header opens at `open`: the
/// body's closing brace, or its first `;` when unbraced (early for a nested
/// unbraced statement, which only makes more uses count as reads).
fn for_end(toks: &[Token], open: usize) -> usize {
    let close = matching(toks, open, "(", ")");
    if punct(toks.get(close + 1), "{") { matching(toks, close + 1, "{", "}") } else { semicolon(toks, close + 1) }
}

fn matching(toks: &[Token], open: usize, o: &str, c: &str) -> usize {
    let mut depth = 0;
    for (k, t) in toks.iter().enumerate().skip(open) {
        if punct(Some(t), o) {
            depth += 1;
        } else if punct(Some(t), c) {
            depth -= 1;
            if depth == 0 {
                return k;
            }
        }
    }
    toks.len()
}

fn semicolon(toks: &[Token], from: usize) -> usize {
    toks.iter().skip(from).position(|t| punct(Some(t), ";")).map_or(toks.len(), |p| from + p)
}

/// A write of a variable that does not read it.
enum Assign {
    /// `i = e;` at statement start.
    Statement,
    /// `for (i = e; ...`, with the loop's last token.
    ForInit(usize),
}

/// Whether token `k` (naming `name`) is an assignment `i = e` at statement
/// start or in a `for` header, with `e` not mentioning `i`.
fn assignment(toks: &[Token], k: usize, name: &str) -> Option<Assign> {
    let in_for = k >= 2 && punct(toks.get(k - 1), "(") && ident(toks.get(k - 2)) == Some("for");
    if !(statement_start(toks, k) || in_for) || !punct(toks.get(k + 1), "=") {
        return None;
    }
    let rhs = &toks[k + 2..semicolon(toks, k + 2)];
    if rhs.iter().any(|t| matches!(&t.tok, Tok::Ident(n) if n == name)) {
        return None;
    }
    Some(if in_for { Assign::ForInit(for_end(toks, k - 1)) } else { Assign::Statement })
}
#[cfg(test)]
mod tests {
    use super::*;

    fn names(s: &[&str]) -> BTreeSet<String> {
        s.iter().map(|s| s.to_string()).collect()
    }

    /// The SCoP is the marker `@`; returns the ints in scope there and the
    /// line:col of the first read of `i` or `j` after it.
    fn scan(src: &str) -> (BTreeSet<String>, Option<(usize, usize)>) {
        let at = src.find('@').unwrap();
        let (ints, blocks) = ints_in_scope(src, at);
        let read = first_read_after(src, at + 1, blocks, &names(&["i", "j"]));
        (ints, read.map(|t| (t.line, t.col)))
    }

    #[test]
    fn plain_ints_in_scope() {
        let (ints, _) = scan("int g;\nvoid f(int n) {\n  int i, *p, a[3], j = 2;\n  long k;\n  { int q; }\n  @\n}\n");
        assert_eq!(ints, names(&["i", "j"]));
        let (ints, _) = scan("void f() {\n  int i;\n  { long i; register int j;\n  @ }\n}\n");
        assert_eq!(ints, names(&["j"]));
        let (ints, _) =
            scan("void f() {\n#define X 1\n  static int i = X, j;\n  for (int k = 0; k < 2; k++) ;\n  @\n}\n");
        assert_eq!(ints, names(&["i", "j"]));
    }

    #[test]
    fn reads_after_the_scop_are_found() {
        assert_eq!(scan("void f() { int i;\n @\n printf(\"%d\", i);\n}\n").1, Some((3, 15)));
        assert_eq!(scan("void f() { int i;\n if (x) { @ }\n y = i;\n}\n").1, Some((3, 6)));
        assert_eq!(scan("void f() { int i;\n @\n if (x) i = 0;\n y = i;\n}\n").1, Some((3, 9)));
        assert_eq!(scan("void f() { int i;\n @\n i = i + 1;\n}\n").1, Some((3, 2)));
        assert_eq!(scan("void f() { int i;\n @\n for (int k = 0; k < 2; k++) s += i;\n}\n").1, Some((3, 35)));
        assert_eq!(
            scan("void f() { int i;\n @\n if (v) for (i = 0; i < 2; i++) s += i;\n s = i;\n}\n").1,
            Some((4, 6))
        );
        // A `for` with its own `i` hides the SCoP's only for that loop.
        assert_eq!(scan("void f() { int i;\n @\n for (int i = 0; i < 2; i++) s += i;\n s = i;\n}\n").1, Some((4, 6)));
    }

    #[test]
    fn writes_and_other_functions_are_not_reads() {
        assert_eq!(scan("void f() { int i, j;\n @\n i = 0; for (j = 0; j < i; j++) g(i, j);\n}\n").1, None);
        assert_eq!(
            scan("void f() { int i;\n @\n for (int i = 0; i < 2; i++) { s += i; }\n}\nvoid g() { i = 1; }\n").1,
            None
        );
        assert_eq!(scan("void f() { int i, j;\n @\n if (v) { for (i = 0; i < 2; i++) s += i; j = 1; }\n}\n").1, None);
        assert_eq!(
            scan("void f() { int i;\n @\n { int i = 2; s = i; }\n p.i = 3;\n}\nint h() { return i; }\n").1,
            None
        );
    }
}
