//! C printing of ISL AST expressions with minimal parentheses.

use isl_rs::{ASTExpr, ASTExprOpType, ASTExprType};

use crate::poly::PolyError;
use crate::poly::tile::{Dim, DimKind, tile_param};

pub struct ExprPrinter<'a> {
    pub dims: &'a [Dim],
    /// Schedule dimensions printed shifted, `(i + 2)`: the copies of an
    /// unroll-and-jammed statement.
    pub shift: &'a [(usize, i64)],
    /// Tile-origin dimensions printed inline as `TSS_Tk * tss_i_t` (their
    /// loops count tile indices, [`crate::config::Form::Inline`]).
    pub inlined: &'a [usize],
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
        let Some((lt, rhs)) = self.test_on(cond, iterator)? else { return Ok(None) };
        Ok(Some(if lt { format!("{} - 1", self.wrap(&rhs, P_ADD)?) } else { self.print(&rhs)? }))
    }

    /// The right-hand side of loop test `iterator < E` (`true`) or
    /// `iterator <= E` (`false`); `None` for other tests.
    fn test_on(&self, cond: &ASTExpr, iterator: &str) -> Result<Option<(bool, ASTExpr)>, PolyError> {
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
        Ok(Some((lt, self.arg(cond, 1)?)))
    }

    /// A loop test `iterator < E` or `iterator <= E` as Pluto spells it:
    /// inclusive, `iterator <= E - 1`, with each constant subtracted next to
    /// a tile size grouped with it (`o + (TSS_T3 - 1)`, see
    /// [`ExprPrinter::minus_one`]). `None` for other tests.
    pub fn inclusive_test(&self, cond: &ASTExpr, iterator: &str) -> Result<Option<String>, PolyError> {
        let Some((lt, rhs)) = self.test_on(cond, iterator)? else { return Ok(None) };
        let bound = if lt { self.minus_one(&rhs)? } else { self.grouped(&rhs)? };
        Ok(Some(format!("{iterator} <= {bound}")))
    }

    /// `min` or `max` of `e`'s arguments each printed by `each`; `None`
    /// unless `e` is a `min` or `max`.
    fn through_min_max(
        &self,
        e: &ASTExpr,
        each: impl Fn(&ASTExpr) -> Result<String, PolyError>,
    ) -> Result<Option<String>, PolyError> {
        let f = match e.get_op_type()? {
            ASTExprOpType::Min => "tss_min",
            ASTExprOpType::Max => "tss_max",
            _ => return Ok(None),
        };
        let mut acc = each(&self.arg(e, 0)?)?;
        for k in 1..e.get_op_n_arg()? {
            acc = format!("{f}({acc}, {})", each(&self.arg(e, k)?)?);
        }
        Ok(Some(acc))
    }

    /// `e - 1`, spelled as Pluto does: through `min` and `max` to their
    /// arguments, into a sum with a tile size as `x + (TSS_Tk - 1)`, into a
    /// constant as its value.
    pub fn minus_one(&self, e: &ASTExpr) -> Result<String, PolyError> {
        match e.get_type()? {
            ASTExprType::Int => return Ok((e.get_val()?.get_num_si()? - 1).to_string()),
            ASTExprType::Op => {}
            _ => return Ok(format!("{} - 1", self.wrap(e, P_ADD)?)),
        }
        if let Some(through) = self.through_min_max(e, |a| self.minus_one(a))? {
            return Ok(through);
        }
        match e.get_op_type()? {
            ASTExprOpType::Add => {
                let (a, b) = (self.arg(e, 0)?, self.arg(e, 1)?);
                for (t, rest) in [(&a, &b), (&b, &a)] {
                    if let Some(t) = self.tile_size(t)? {
                        return Ok(format!("{} + ({t} - 1)", self.wrap(rest, P_ADD)?));
                    }
                }
                Ok(format!("{} - 1", self.wrap(e, P_ADD)?))
            }
            _ => Ok(format!("{} - 1", self.wrap(e, P_ADD)?)),
        }
    }

    /// `e` with a trailing `T + x - 1` regrouped as `x + (T - 1)`, also
    /// inside `min` and `max`.
    pub fn grouped(&self, e: &ASTExpr) -> Result<String, PolyError> {
        if e.get_type()? != ASTExprType::Op {
            return self.print(e);
        }
        if let Some(through) = self.through_min_max(e, |a| self.grouped(a))? {
            return Ok(through);
        }
        match e.get_op_type()? {
            ASTExprOpType::Sub => {
                let (a, b) = (self.arg(e, 0)?, self.arg(e, 1)?);
                let one = b.get_type()? == ASTExprType::Int && b.get_val()?.get_num_si()? == 1;
                if one && a.get_type()? == ASTExprType::Op && a.get_op_type()? == ASTExprOpType::Add {
                    return self.minus_one(&a);
                }
                self.print(e)
            }
            _ => self.print(e),
        }
    }

    /// The tile-size parameter `e` names, if it is one (`TSS_T3`).
    fn tile_size(&self, e: &ASTExpr) -> Result<Option<String>, PolyError> {
        if e.get_type()? != ASTExprType::Id {
            return Ok(None);
        }
        let name = e.get_id()?.get_name()?.to_string();
        let is_size =
            name.strip_prefix("TSS_T").is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()));
        Ok(is_size.then_some(name))
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
                if let (true, Some(DimKind::Tile { member, .. })) =
                    (self.inlined.contains(&p), self.dims.get(p).map(|d| &d.kind))
                {
                    return Ok((format!("{} * tss_{}", tile_param(*member), self.dims[p].name), P_MUL));
                }
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
