//! C printing of ISL AST expressions with minimal parentheses.

use isl_rs::{ASTExpr, ASTExprOpType, ASTExprType};

use crate::poly::PolyError;
use crate::poly::tile::Dim;

pub struct ExprPrinter<'a> {
    pub dims: &'a [Dim],
    /// Schedule dimensions printed shifted, `(i + 2)`: the copies of an
    /// unroll-and-jammed statement.
    pub shift: &'a [(usize, i64)],
}

/// C precedence levels used to decide on parentheses.
const P_OR: u8 = 1;
const P_AND: u8 = 2;
const P_EQ: u8 = 3;
const P_REL: u8 = 4;
const P_ADD: u8 = 5;
const P_MUL: u8 = 6;
const P_UNARY: u8 = 7;
const P_ATOM: u8 = 8;

impl ExprPrinter<'_> {
    pub fn print(&self, e: &ASTExpr) -> Result<String, PolyError> {
        Ok(self.go(e)?.0)
    }

    /// The inclusive upper bound of loop test `cond` on `iterator`: `U` for
    /// `iterator <= U`, `E - 1` for `iterator < E`; `None` for other tests.
    pub fn upper_bound(&self, cond: &ASTExpr, iterator: &str) -> Result<Option<String>, PolyError> {
        if cond.get_type()? != ASTExprType::Op {
            return Ok(None);
        }
        let lt = match cond.get_op_type()? {
            ASTExprOpType::Le => false,
            ASTExprOpType::Lt => true,
            _ => return Ok(None),
        };
        let lhs = self.arg(cond, 0)?;
        if lhs.get_type()? != ASTExprType::Id || self.print(&lhs)? != iterator {
            return Ok(None);
        }
        let rhs = self.arg(cond, 1)?;
        Ok(Some(if lt { format!("{} - 1", self.wrap(&rhs, P_ADD)?) } else { self.print(&rhs)? }))
    }

    fn wrap(&self, e: &ASTExpr, min: u8) -> Result<String, PolyError> {
        let (s, p) = self.go(e)?;
        Ok(if p < min { format!("({s})") } else { s })
    }

    fn go(&self, e: &ASTExpr) -> Result<(String, u8), PolyError> {
        match e.get_type()? {
            ASTExprType::Int => {
                let v = e.get_val()?.get_num_si()?;
                Ok((v.to_string(), if v < 0 { P_UNARY } else { P_ATOM }))
            }
            ASTExprType::Id => {
                let name = e.get_id()?.get_name()?.to_string();
                let Some(p) = name.strip_prefix("tss_d").and_then(|p| p.parse::<usize>().ok()) else {
                    return Ok((name, P_ATOM));
                };
                let mapped = self.dims.get(p).map_or(name, |d| d.name.clone());
                match self.shift.iter().find(|(q, _)| *q == p) {
                    Some(&(_, o)) if o != 0 => Ok((format!("{mapped} + {o}"), P_ADD)),
                    _ => Ok((mapped, P_ATOM)),
                }
            }
            ASTExprType::Op => self.op(e),
            ASTExprType::Error => Err(PolyError("ISL returned an invalid expression".into())),
        }
    }

    fn arg(&self, e: &ASTExpr, k: i32) -> Result<ASTExpr, PolyError> {
        Ok(e.get_op_arg(k)?)
    }

    fn op(&self, e: &ASTExpr) -> Result<(String, u8), PolyError> {
        use ASTExprOpType as O;
        let n = e.get_op_n_arg()?;
        let bin = |op: &str, p: u8| -> Result<(String, u8), PolyError> {
            // Left-associative: the right operand needs strictly higher precedence.
            let a = self.wrap(&self.arg(e, 0)?, p)?;
            let b = self.wrap(&self.arg(e, 1)?, p + 1)?;
            Ok((format!("{a} {op} {b}"), p))
        };
        let call = |f: &str| -> Result<(String, u8), PolyError> {
            // n-ary min/max nest pairwise.
            let mut acc = self.print(&self.arg(e, 0)?)?;
            for k in 1..n {
                acc = format!("{f}({acc}, {})", self.print(&self.arg(e, k)?)?);
            }
            Ok((acc, P_ATOM))
        };
        match e.get_op_type()? {
            O::And | O::AndThen => bin("&&", P_AND),
            O::Or | O::OrElse => bin("||", P_OR),
            O::Max => call("tss_max"),
            O::Min => call("tss_min"),
            O::Minus => Ok((format!("-{}", self.wrap(&self.arg(e, 0)?, P_UNARY)?), P_UNARY)),
            O::Add => bin("+", P_ADD),
            O::Sub => bin("-", P_ADD),
            O::Mul => bin("*", P_MUL),
            O::Div | O::PdivQ => bin("/", P_MUL),
            O::PdivR | O::ZdivR => bin("%", P_MUL),
            O::FdivQ => {
                let a = self.print(&self.arg(e, 0)?)?;
                let b = self.print(&self.arg(e, 1)?)?;
                Ok((format!("tss_floord({a}, {b})"), P_ATOM))
            }
            O::Cond | O::Select => {
                let c = self.wrap(&self.arg(e, 0)?, P_OR)?;
                let a = self.wrap(&self.arg(e, 1)?, P_OR)?;
                let b = self.wrap(&self.arg(e, 2)?, P_OR)?;
                // Always parenthesised: C's `?:` binds looser than anything
                // it is pasted into (guards, bounds).
                Ok((format!("({c} ? {a} : {b})"), P_ATOM))
            }
            O::Eq => bin("==", P_EQ),
            O::Le => bin("<=", P_REL),
            O::Lt => bin("<", P_REL),
            O::Ge => bin(">=", P_REL),
            O::Gt => bin(">", P_REL),
            O::Call => {
                let f = self.print(&self.arg(e, 0)?)?;
                let args = (1..n).map(|k| self.print(&self.arg(e, k)?)).collect::<Result<Vec<_>, _>>()?;
                Ok((format!("{f}({})", args.join(", ")), P_ATOM))
            }
            other => Err(PolyError(format!("unsupported AST operation {other:?}"))),
        }
    }
}
