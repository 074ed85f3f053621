//! Random affine programs: one SCoP of 1-3 nests wrapped into a whole C
//! program that prints its arrays exactly.
//!
//! The generator aims at what users write and what stresses the tiler:
//! - nests of depth 1-4, imperfect, with statements between loops;
//! - bounds with `min`/`max`, C's truncating `/` and `%`, decreasing loops;
//! - affine guards with `&&`, `||`, `!=` and `else`;
//! - shifted, transposed and skewed subscripts, in-place stencil updates;
//! - scalar temporaries written and read inside the SCoP.
//!
//! Every subscript stays within `[-RADIUS, RADIUS)` by construction (an
//! interval bound of each expression), so a program never reads outside its
//! arrays and any difference after tiling is the tiler's fault. Array values
//! are combined with weights whose magnitudes sum to at most one, so they stay
//! finite; floating-point results are compared bit for bit.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Arrays are indexed in `[-RADIUS, RADIUS)` in every dimension.
pub const RADIUS: i64 = 128;
/// Largest value a parameter takes in a run.
pub const MAX_PARAM: i64 = 10;
/// Tile-size variables the driver provides (`TSS_T1..TSS_T8`).
pub const MAX_TILE_DIMS: usize = 8;

const ITERS: [&str; 4] = ["i", "j", "k", "l"];
const PARAMS: [&str; 2] = ["N", "M"];
/// Arrays: name and rank.
const ARRAYS: [(&str, usize); 5] = [("A", 2), ("B", 2), ("C", 2), ("x", 1), ("y", 1)];
/// Scalars the SCoPs write and read (modelled like 0-d arrays).
pub const SCALARS: [&str; 2] = ["s", "t"];

/// A generated program.
pub struct Program {
    /// The whole C file (kernel, driver and printing).
    pub source: String,
    /// Parameter values to run it with: each entry is one run's `N M`.
    pub sizes: Vec<[i64; 2]>,
}

/// An affine expression with a bound on its absolute value.
#[derive(Clone)]
struct E {
    text: String,
    /// Upper bound of `|value|` over every run.
    max: i64,
}

impl E {
    fn int(v: i64) -> E {
        E { text: v.to_string(), max: v.abs() }
    }
}

/// Loops enclosing the point of generation: iterator name and value bound.
#[derive(Clone, Default)]
struct Scope {
    iters: Vec<(&'static str, i64)>,
}

struct Gen {
    rng: StdRng,
    out: String,
    /// Statements still allowed (keeps programs small).
    budget: usize,
}

/// Generates the program of `seed`.
pub fn program(seed: u64) -> Program {
    let mut g = Gen { rng: StdRng::seed_from_u64(seed), out: String::new(), budget: 0 };
    g.budget = g.rng.random_range(1..=6);
    let nests = g.rng.random_range(1..=3);
    let scope = Scope::default();
    for _ in 0..nests {
        if g.budget == 0 {
            break;
        }
        let depth = g.rng.random_range(1..=4);
        g.nest(&scope, depth, 1);
    }
    if g.out.is_empty() {
        g.statement(&scope, 1);
    }
    let sizes = (0..2).map(|_| [g.rng.random_range(2..=MAX_PARAM), g.rng.random_range(2..=MAX_PARAM)]).collect();
    let decl = g.pick(&["int", "int", "int", "long", "register int"]);
    let tail = g.tail();
    Program { source: wrap_with(&g.out, decl, &tail), sizes }
}

impl Gen {
    /// Code after the SCoP that uses an iterator: read after a fresh
    /// assignment (fine), read as the SCoP leaves it (tss must refuse), or
    /// nothing.
    fn tail(&mut self) -> String {
        let it = self.pick(&ITERS);
        match self.rng.random_range(0..10) {
            0 => format!("  for ({it} = 0; {it} < 3; {it}++)\n    t += 0.5 * {it};\n"),
            1 => format!("  {it} = 2;\n  t += {it};\n"),
            2 => format!("  t += {it};\n"),
            _ => String::new(),
        }
    }

    fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p)
    }

    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.rng.random_range(0..xs.len())]
    }

    fn line(&mut self, indent: usize, text: &str) {
        self.out.push_str(&"  ".repeat(indent));
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// A loop of `depth` levels with statements around the inner ones.
    fn nest(&mut self, scope: &Scope, depth: usize, indent: usize) {
        let Some(&name) = ITERS.iter().find(|n| !scope.iters.iter().any(|(m, _)| m == *n)) else {
            self.statement(scope, indent);
            return;
        };
        let lo = self.lower(scope);
        let hi = self.upper(scope);
        let bound = lo.max.max(hi.max) + 1;
        // Decreasing loops start at their upper bound.
        let header = if self.chance(0.25) {
            let cmp = self.pick(&[">=", ">"]);
            format!("for ({name} = {}; {name} {cmp} {}; {name}--)", hi.text, lo.text)
        } else {
            let cmp = self.pick(&["<", "<="]);
            format!("for ({name} = {}; {name} {cmp} {}; {name}++)", lo.text, hi.text)
        };
        self.line(indent, &format!("{header} {{"));
        let mut inner = scope.clone();
        inner.iters.push((name, bound));
        let parts = self.rng.random_range(1..=2);
        for _ in 0..parts {
            if self.budget == 0 {
                break;
            }
            if depth > 1 && self.chance(0.7) {
                if self.chance(0.2) {
                    self.guarded(&inner, indent + 1, |g, s, i| g.nest(s, depth - 1, i));
                } else {
                    self.nest(&inner, depth - 1, indent + 1);
                }
            } else if self.chance(0.3) {
                self.guarded(&inner, indent + 1, |g, s, i| g.statement(s, i));
            } else {
                self.statement(&inner, indent + 1);
            }
        }
        self.line(indent, "}");
    }

    /// `if (cond) body [else body]`.
    fn guarded(&mut self, scope: &Scope, indent: usize, body: impl Fn(&mut Gen, &Scope, usize)) {
        let cond = self.condition(scope);
        self.line(indent, &format!("if ({cond}) {{"));
        body(self, scope, indent + 1);
        if self.chance(0.3) && self.budget > 0 {
            self.line(indent, "} else {");
            body(self, scope, indent + 1);
        }
        self.line(indent, "}");
    }

    fn condition(&mut self, scope: &Scope) -> String {
        let atom = |g: &mut Gen| {
            let a = g.affine(scope, 2);
            let b = g.affine(scope, 1);
            let op = g.pick(&["<", "<=", ">", ">=", "==", "!="]);
            if g.chance(0.1) {
                let d = g.rng.random_range(2..=3);
                format!("({}) % {d} == 0", a.text)
            } else {
                format!("{} {op} {}", a.text, b.text)
            }
        };
        let first = atom(self);
        if self.chance(0.3) {
            let op = self.pick(&["&&", "||"]);
            let second = atom(self);
            format!("{first} {op} {second}")
        } else {
            first
        }
    }

    /// A term: an iterator, a parameter or a constant, with a small factor.
    fn term(&mut self, scope: &Scope) -> E {
        let roll = self.rng.random_range(0..10);
        let (text, max) = if roll < 6 && !scope.iters.is_empty() {
            let (n, b) = self.pick(&scope.iters);
            (n.to_string(), b)
        } else if roll < 8 {
            (self.pick(&PARAMS).to_string(), MAX_PARAM)
        } else {
            return E::int(self.rng.random_range(-3..=4));
        };
        match self.rng.random_range(0..8) {
            0 => E { text: format!("-{text}"), max },
            1 => E { text: format!("2 * {text}"), max: 2 * max },
            _ => E { text, max },
        }
    }

    /// Sum of up to `terms` terms and a constant.
    fn affine(&mut self, scope: &Scope, terms: usize) -> E {
        let n = self.rng.random_range(1..=terms);
        let mut e = self.term(scope);
        for _ in 1..n {
            let t = self.term(scope);
            let op = self.pick(&["+", "-"]);
            e = E { text: format!("{} {op} {}", e.text, t.text), max: e.max + t.max };
        }
        if self.chance(0.5) {
            let c: i64 = self.rng.random_range(-3..=3);
            if c != 0 {
                e = E { text: format!("{} + {c}", e.text), max: e.max + c.abs() };
            }
        }
        if self.chance(0.1) {
            let d = self.rng.random_range(2..=3);
            e = E { text: format!("({}) / {d}", e.text), max: e.max / d + 1 };
        }
        e
    }

    /// A lower bound: affine, sometimes the `max` of two.
    fn lower(&mut self, scope: &Scope) -> E {
        let a = self.small_affine(scope);
        if self.chance(0.2) {
            let b = self.small_affine(scope);
            return E { text: format!("max({}, {})", a.text, b.text), max: a.max.max(b.max) };
        }
        a
    }

    /// An upper bound: usually a parameter, sometimes an outer iterator or a `min`.
    fn upper(&mut self, scope: &Scope) -> E {
        let p = self.pick(&PARAMS);
        let c: i64 = self.rng.random_range(-2..=2);
        let base = E { text: if c == 0 { p.to_string() } else { format!("{p} + {c}") }, max: MAX_PARAM + c.abs() };
        match self.rng.random_range(0..6) {
            0 | 1 => {
                let b = self.small_affine(scope);
                E { text: format!("min({}, {})", base.text, b.text), max: base.max.max(b.max) }
            }
            2 => self.small_affine(scope),
            _ => base,
        }
    }

    /// Affine with at most two terms, bounded so that nests stay small.
    fn small_affine(&mut self, scope: &Scope) -> E {
        loop {
            let e = self.affine(scope, 2);
            if e.max <= 2 * MAX_PARAM {
                return e;
            }
        }
    }

    /// An assignment to an array element or a scalar.
    fn statement(&mut self, scope: &Scope, indent: usize) {
        self.budget = self.budget.saturating_sub(1);
        let lhs = if self.chance(0.15) { self.pick(&SCALARS).to_string() } else { self.access(scope) };
        let mut terms = Vec::new();
        let reads = self.rng.random_range(0..=3);
        for _ in 0..reads {
            let r = if self.chance(0.15) { self.pick(&SCALARS).to_string() } else { self.access(scope) };
            terms.push(r);
        }
        if self.chance(0.3) && !scope.iters.is_empty() {
            let (n, _) = self.pick(&scope.iters);
            terms.push(format!("{n} * 0.0625"));
        }
        // Weights of magnitude summing to at most one keep values bounded.
        let weights = ["0.5", "0.25", "0.125", "0.0625"];
        let mut rhs = format!("{}", self.rng.random_range(-2..=2));
        for (n, t) in terms.iter().enumerate() {
            let op = self.pick(&["+", "-"]);
            rhs = format!("{rhs} {op} {} * {t}", weights[n.min(3)]);
        }
        let op = if self.chance(0.2) { "+=" } else { "=" };
        let rhs = if op == "+=" { format!("0.5 * ({rhs})") } else { rhs };
        self.line(indent, &format!("{lhs} {op} {rhs};"));
    }

    /// `A[e][e]` or `x[e]` with subscripts inside the arrays.
    fn access(&mut self, scope: &Scope) -> String {
        let (name, rank) = self.pick(&ARRAYS);
        let mut s = name.to_string();
        for _ in 0..rank {
            let mut e = self.affine(scope, 2);
            if self.chance(0.05) {
                let d = self.rng.random_range(2..=4);
                e = E { text: format!("({}) % {d}", e.text), max: d };
            }
            if e.max >= RADIUS {
                e = E::int(0);
            }
            s.push_str(&format!("[{}]", e.text));
        }
        s
    }
}

/// The whole program around the SCoP `body`: arrays are static storage
/// indexed from `-RADIUS`, tile sizes are run-time variables (so one
/// compilation serves every tile configuration), and the output is a
/// 64-bit FNV-1a hash of every array's bytes and the scalars' bits.
pub fn wrap(body: &str) -> String {
    wrap_with(body, "int", "")
}

/// [`wrap`] with the iterators declared as `decl` (`int`, `long`) and
/// `tail` run after the SCoP, before the scalars are stored.
pub fn wrap_with(body: &str, decl: &str, tail: &str) -> String {
    let w = 2 * RADIUS;
    let mut s = String::new();
    s.push_str("#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n");
    s.push_str(&format!("#define W {w}\n#define R {RADIUS}\n"));
    s.push_str("#define min(a, b) ((a) < (b) ? (a) : (b))\n#define max(a, b) ((a) > (b) ? (a) : (b))\n");
    s.push_str(&format!("int tss_fuzz_t[{MAX_TILE_DIMS}];\n"));
    for (name, rank) in ARRAYS {
        let dims = if rank == 2 { "[W][W]" } else { "[W]" };
        s.push_str(&format!("static double {name}_s{dims};\n"));
    }
    s.push_str("static double (*A)[W], (*B)[W], (*C)[W], *x, *y;\n\n");
    s.push_str(&format!(
        "static void kernel(int N, int M, double *out_s, double *out_t)\n{{\n  {decl} i = 1, j = 2, k = 3, l = 4;\n"
    ));
    s.push_str("  double s = 0.5, t = -0.25;\n#pragma scop\n");
    s.push_str(body);
    s.push_str("#pragma endscop\n");
    s.push_str(tail);
    s.push_str("  *out_s = s;\n  *out_t = t;\n}\n\n");
    s.push_str(
        "static unsigned long long fnv(const void *p, size_t n)\n{\n  const unsigned char *b = p;\n  \
         unsigned long long h = 1469598103934665603ULL;\n  for (size_t q = 0; q < n; q++) {\n    h ^= b[q];\n    \
         h *= 1099511628211ULL;\n  }\n  return h;\n}\n\n",
    );
    s.push_str("int main(int argc, char **argv)\n{\n  double os, ot;\n  int N, M, a, b;\n");
    s.push_str(&format!(
        "  if (argc < 3) return 2;\n  N = atoi(argv[1]);\n  M = atoi(argv[2]);\n  \
         for (a = 0; a < {MAX_TILE_DIMS}; a++)\n    tss_fuzz_t[a] = argc > 3 + a ? atoi(argv[3 + a]) : tss_fuzz_t[a > 0 ? a - 1 : 0];\n"
    ));
    s.push_str("  for (a = 0; a < W; a++) {\n    x_s[a] = (a % 7) * 0.125;\n    y_s[a] = (a % 5) * 0.25 - 0.5;\n");
    s.push_str("    for (b = 0; b < W; b++) {\n      A_s[a][b] = ((a * 3 + b) % 11) * 0.0625;\n");
    s.push_str(
        "      B_s[a][b] = ((a + b * 5) % 13) * 0.03125 - 0.1;\n      C_s[a][b] = ((a * b) % 7) * 0.5;\n    }\n  }\n",
    );
    s.push_str(
        "  A = (double (*)[W]) &A_s[R][R];\n  B = (double (*)[W]) &B_s[R][R];\n  C = (double (*)[W]) &C_s[R][R];\n",
    );
    s.push_str("  x = &x_s[R];\n  y = &y_s[R];\n  kernel(N, M, &os, &ot);\n");
    for (name, _) in ARRAYS {
        s.push_str(&format!("  printf(\"{name} %016llx\\n\", fnv({name}_s, sizeof {name}_s));\n"));
    }
    s.push_str("  printf(\"s %a\\nt %a\\n\", os, ot);\n  return 0;\n}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_are_deterministic_and_varied() {
        let a = program(7);
        assert_eq!(a.source, program(7).source);
        let distinct: std::collections::BTreeSet<String> = (0..50).map(|s| program(s).source).collect();
        assert!(distinct.len() >= 45);
        assert!(a.source.contains("#pragma scop") && a.source.contains("#pragma endscop"));
        // Every generated SCoP is accepted by the frontend or refused with a position.
        for seed in 0..200 {
            let p = program(seed);
            if let Err(e) = crate::frontend::parse_file(&p.source) {
                assert!(e.line > 0, "seed {seed}: {}", e.msg);
            }
        }
    }
}
