//! Affine expressions and conditions over iterators and parameters.
//!
//! Loop bounds, guards and subscripts are parsed into these trees, checked to
//! be affine, and rendered in ISL's textual syntax. `min`/`max` are allowed in
//! bounds (ISL reads them as piecewise-affine). `/` and `%` by a positive
//! constant keep C's meaning exactly: the quotient truncates toward zero, so
//! `(i - 3) / 2` is -1 at `i = 0`, not ISL's floor, -2. They are rendered as
//! the piecewise expressions `floor(max(x, 0) / d) - floor(max(-x, 0) / d)`
//! and `x - d * that`, which agree with C for every sign of `x`. Each adds
//! integer divisions that make ISL's scheduler slower, so constant
//! quotients are folded first.

use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq)]
pub enum Aff {
    Int(i64),
    Var(String),
    Add(Box<Aff>, Box<Aff>),
    Sub(Box<Aff>, Box<Aff>),
    /// Product with a constant factor (checked at construction).
    Scale(i64, Box<Aff>),
    Neg(Box<Aff>),
    /// C's `/` by a positive constant: truncates toward zero.
    Div(Box<Aff>, i64),
    /// C's `%` by a positive constant: the sign follows the dividend.
    Mod(Box<Aff>, i64),
    Min(Box<Aff>, Box<Aff>),
    Max(Box<Aff>, Box<Aff>),
}

/// A linear form: coefficient per variable plus a constant.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Linear {
    pub coeffs: BTreeMap<String, i64>,
    pub constant: i64,
}

impl Linear {
    pub fn coeff(&self, var: &str) -> i64 {
        self.coeffs.get(var).copied().unwrap_or(0)
    }
}

impl Aff {
    /// Value if the expression holds no variable.
    pub fn constant(&self) -> Option<i64> {
        match self {
            Aff::Int(v) => Some(*v),
            Aff::Var(_) => None,
            Aff::Add(a, b) => Some(a.constant()?.checked_add(b.constant()?)?),
            Aff::Sub(a, b) => Some(a.constant()?.checked_sub(b.constant()?)?),
            Aff::Scale(c, a) => Some(c.checked_mul(a.constant()?)?),
            Aff::Neg(a) => a.constant()?.checked_neg(),
            // Rust's `/` and `%` on integers truncate, as C's do.
            Aff::Div(a, d) => a.constant()?.checked_div(*d),
            Aff::Mod(a, d) => a.constant()?.checked_rem(*d),
            Aff::Min(a, b) => Some(a.constant()?.min(b.constant()?)),
            Aff::Max(a, b) => Some(a.constant()?.max(b.constant()?)),
        }
    }

    /// The linear form, if the expression has no `min`, `max` or division.
    pub fn linear(&self) -> Option<Linear> {
        let mut out = Linear::default();
        self.accumulate(1, &mut out)?;
        out.coeffs.retain(|_, c| *c != 0);
        Some(out)
    }

    /// Adds `factor * self` to `out`; `None` on a non-linear term or an
    /// overflow (huge constants are then left to ISL's exact arithmetic).
    fn accumulate(&self, factor: i64, out: &mut Linear) -> Option<()> {
        match self {
            Aff::Int(v) => out.constant = out.constant.checked_add(factor.checked_mul(*v)?)?,
            Aff::Var(n) => {
                let c = out.coeffs.entry(n.clone()).or_insert(0);
                *c = c.checked_add(factor)?;
            }
            Aff::Add(a, b) => {
                a.accumulate(factor, out)?;
                b.accumulate(factor, out)?;
            }
            Aff::Sub(a, b) => {
                a.accumulate(factor, out)?;
                b.accumulate(factor.checked_neg()?, out)?;
            }
            Aff::Scale(c, a) => a.accumulate(factor.checked_mul(*c)?, out)?,
            Aff::Neg(a) => a.accumulate(factor.checked_neg()?, out)?,
            Aff::Div(..) | Aff::Mod(..) | Aff::Min(..) | Aff::Max(..) => return None,
        }
        Some(())
    }

    /// How the expression changes as `var` grows: `Some(0)` not at all,
    /// `Some(1)` never decreases, `Some(-1)` never increases, `None` either
    /// way (`%`, or terms pulling both ways). Truncating division by a
    /// positive constant, `min` and `max` preserve monotonicity.
    pub fn monotone_in(&self, var: &str) -> Option<i8> {
        if let Some(l) = self.linear() {
            return Some(l.coeff(var).signum() as i8);
        }
        let join = |a: Option<i8>, b: Option<i8>| match (a?, b?) {
            (0, y) => Some(y),
            (x, 0) => Some(x),
            (x, y) if x == y => Some(x),
            _ => None,
        };
        match self {
            Aff::Int(_) => Some(0),
            Aff::Var(n) => Some(i8::from(n == var)),
            Aff::Add(a, b) | Aff::Min(a, b) | Aff::Max(a, b) => join(a.monotone_in(var), b.monotone_in(var)),
            Aff::Sub(a, b) => join(a.monotone_in(var), b.monotone_in(var).map(|m| -m)),
            Aff::Scale(c, a) => a.monotone_in(var).map(|m| m * c.signum() as i8),
            Aff::Neg(a) => a.monotone_in(var).map(|m| -m),
            Aff::Div(a, _) => a.monotone_in(var),
            Aff::Mod(a, _) => {
                let mut vars = Vec::new();
                a.vars(&mut vars);
                if vars.iter().any(|v| v == var) { None } else { Some(0) }
            }
        }
    }

    /// Every variable the expression mentions.
    pub fn vars(&self, out: &mut Vec<String>) {
        match self {
            Aff::Int(_) => {}
            Aff::Var(n) => {
                if !out.contains(n) {
                    out.push(n.clone())
                }
            }
            Aff::Add(a, b) | Aff::Sub(a, b) | Aff::Min(a, b) | Aff::Max(a, b) => {
                a.vars(out);
                b.vars(out);
            }
            Aff::Scale(_, a) | Aff::Neg(a) | Aff::Div(a, _) | Aff::Mod(a, _) => a.vars(out),
        }
    }

    /// ISL syntax; constant subexpressions are folded.
    pub fn isl(&self) -> String {
        if let Some(c) = self.constant() {
            return c.to_string();
        }
        match self {
            Aff::Int(v) => format!("{v}"),
            Aff::Var(n) => n.clone(),
            Aff::Add(a, b) => format!("({} + {})", a.isl(), b.isl()),
            Aff::Sub(a, b) => format!("({} - {})", a.isl(), b.isl()),
            Aff::Scale(c, a) => format!("({c} * {})", a.isl()),
            Aff::Neg(a) => format!("(-{})", a.isl()),
            Aff::Div(a, d) => trunc_div_isl(&a.isl(), *d),
            Aff::Mod(a, d) => {
                let x = a.isl();
                format!("({x} - {d} * {})", trunc_div_isl(&x, *d))
            }
            Aff::Min(a, b) => format!("min({}, {})", a.isl(), b.isl()),
            Aff::Max(a, b) => format!("max({}, {})", a.isl(), b.isl()),
        }
    }
}

/// C's truncating `x / d` (`d > 0`) as a piecewise ISL expression.
/// ISL's parser takes no `?:` inside a constraint, so both signs are
/// covered by `max`: one of the two floors is always zero.
fn trunc_div_isl(x: &str, d: i64) -> String {
    format!("(floor((max({x}, 0))/{d}) - floor((max(-({x}), 0))/{d}))")
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

/// A condition of an `if` or a loop test, in disjunctive/conjunctive form.
#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    Cmp(Aff, CmpOp, Aff),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
}

impl Cond {
    pub fn isl(&self) -> String {
        match self {
            Cond::Cmp(a, op, b) => {
                let (a, b) = (a.isl(), b.isl());
                match op {
                    CmpOp::Lt => format!("{a} < {b}"),
                    CmpOp::Le => format!("{a} <= {b}"),
                    CmpOp::Gt => format!("{a} > {b}"),
                    CmpOp::Ge => format!("{a} >= {b}"),
                    CmpOp::Eq => format!("{a} = {b}"),
                    CmpOp::Ne => format!("({a} < {b} or {a} > {b})"),
                }
            }
            Cond::And(a, b) => format!("({} and {})", a.isl(), b.isl()),
            Cond::Or(a, b) => format!("({} or {})", a.isl(), b.isl()),
        }
    }

    pub fn vars(&self, out: &mut Vec<String>) {
        match self {
            Cond::Cmp(a, _, b) => {
                a.vars(out);
                b.vars(out);
            }
            Cond::And(a, b) | Cond::Or(a, b) => {
                a.vars(out);
                b.vars(out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(n: &str) -> Box<Aff> {
        Box::new(Aff::Var(n.into()))
    }

    #[test]
    fn linear_form_folds_terms() {
        // 2*(i - 1) + j - i  ==  i + j - 2
        let e = Aff::Add(
            Box::new(Aff::Scale(2, Box::new(Aff::Sub(v("i"), Box::new(Aff::Int(1)))))),
            Box::new(Aff::Sub(v("j"), v("i"))),
        );
        let l = e.linear().unwrap();
        assert_eq!((l.coeff("i"), l.coeff("j"), l.constant), (1, 1, -2));
        assert_eq!(Aff::Min(v("i"), v("j")).linear(), None);
    }

    #[test]
    fn renders_isl_syntax() {
        let c = Cond::Cmp(Aff::Var("i".into()), CmpOp::Ne, Aff::Min(v("N"), v("M")));
        assert_eq!(c.isl(), "(i < min(N, M) or i > min(N, M))");
        assert_eq!(Aff::Div(v("x"), 2).isl(), "(floor((max(x, 0))/2) - floor((max(-(x), 0))/2))");
        assert_eq!(Aff::Div(Box::new(Aff::Int(-7)), 2).isl(), "-3");
    }

    #[test]
    fn division_truncates_like_c() {
        let e = |x: i64| Aff::Div(Box::new(Aff::Int(x)), 2).constant();
        assert_eq!((e(-3), e(-1), e(3)), (Some(-1), Some(0), Some(1)));
        assert_eq!(Aff::Mod(Box::new(Aff::Int(-3)), 2).constant(), Some(-1));
        assert_eq!(Aff::Neg(Box::new(Aff::Int(i64::MIN))).constant(), None);
    }

    #[test]
    fn monotonicity() {
        let i = || v("i");
        assert_eq!(Aff::Sub(v("N"), i()).monotone_in("i"), Some(-1));
        assert_eq!(Aff::Div(Box::new(Aff::Scale(3, i())), 2).monotone_in("i"), Some(1));
        assert_eq!(Aff::Min(i(), v("N")).monotone_in("i"), Some(1));
        assert_eq!(Aff::Sub(i(), Box::new(Aff::Scale(2, i()))).monotone_in("i"), Some(-1));
        assert_eq!(Aff::Sub(Box::new(Aff::Div(i(), 2)), i()).monotone_in("i"), None);
        assert_eq!(Aff::Mod(i(), 4).monotone_in("i"), None);
        assert_eq!(Aff::Mod(v("N"), 4).monotone_in("i"), Some(0));
    }
}
