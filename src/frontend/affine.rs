//! Affine expressions and conditions over iterators and parameters.
//!
//! Loop bounds, guards and subscripts are parsed into these trees, checked to
//! be affine, and rendered in ISL's textual syntax. `min`/`max` are allowed in
//! bounds (ISL reads them as piecewise-affine); `/` by a positive constant is
//! floor division, which equals C's truncation for the non-negative values
//! that bounds take in practice.

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
    FloorDiv(Box<Aff>, i64),
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
            Aff::Neg(a) => Some(-a.constant()?),
            Aff::FloorDiv(a, d) => Some(a.constant()?.div_euclid(*d)),
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

    fn accumulate(&self, factor: i64, out: &mut Linear) -> Option<()> {
        match self {
            Aff::Int(v) => out.constant += factor * v,
            Aff::Var(n) => *out.coeffs.entry(n.clone()).or_insert(0) += factor,
            Aff::Add(a, b) => {
                a.accumulate(factor, out)?;
                b.accumulate(factor, out)?;
            }
            Aff::Sub(a, b) => {
                a.accumulate(factor, out)?;
                b.accumulate(-factor, out)?;
            }
            Aff::Scale(c, a) => a.accumulate(factor * c, out)?,
            Aff::Neg(a) => a.accumulate(-factor, out)?,
            Aff::FloorDiv(..) | Aff::Min(..) | Aff::Max(..) => return None,
        }
        Some(())
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
            Aff::Scale(_, a) | Aff::Neg(a) | Aff::FloorDiv(a, _) => a.vars(out),
        }
    }

    /// ISL syntax, with every variable renamed through `name`.
    pub fn isl(&self) -> String {
        match self {
            Aff::Int(v) => format!("{v}"),
            Aff::Var(n) => n.clone(),
            Aff::Add(a, b) => format!("({} + {})", a.isl(), b.isl()),
            Aff::Sub(a, b) => format!("({} - {})", a.isl(), b.isl()),
            Aff::Scale(c, a) => format!("({c} * {})", a.isl()),
            Aff::Neg(a) => format!("(-{})", a.isl()),
            Aff::FloorDiv(a, d) => format!("floor(({})/{d})", a.isl()),
            Aff::Min(a, b) => format!("min({}, {})", a.isl(), b.isl()),
            Aff::Max(a, b) => format!("max({}, {})", a.isl(), b.isl()),
        }
    }
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
        let c = Cond::Cmp(Aff::Var("i".into()), CmpOp::Ne, Aff::FloorDiv(v("N"), 2));
        assert_eq!(c.isl(), "(i < floor((N)/2) or i > floor((N)/2))");
    }
}
