//! Recursive-descent parser for the statements of a SCoP.
//!
//! Produces a small tree of loops, guards and statements. Everything the
//! polyhedral model needs (bounds, guards, subscripts) is parsed into affine
//! form here, so a non-affine construct is reported at its own position.

use super::SourceError;
use super::affine::{Aff, CmpOp, Cond};
use super::lexer::{Tok, Token};

#[derive(Debug)]
pub enum Node {
    For(For),
    If(If),
    Block(Vec<Node>),
    Stmt(Stmt),
}

#[derive(Debug)]
pub struct For {
    /// Token index of the `for` keyword (for error positions).
    pub pos: usize,
    pub iter: String,
    /// `for (int i = ...)`: the loop declares its own iterator.
    pub declares: bool,
    pub init: Aff,
    pub cond: Cond,
    /// +1 or -1.
    pub step: i64,
    pub body: Box<Node>,
}

#[derive(Debug)]
pub struct If {
    /// Token index of the `if` keyword.
    pub pos: usize,
    pub cond: Cond,
    pub then: Box<Node>,
    pub els: Option<Box<Node>>,
}

/// An assignment statement: token range plus its parsed left-hand side.
#[derive(Debug)]
pub struct Stmt {
    /// Index of the first token and one past the `;`.
    pub first: usize,
    pub last: usize,
    /// Index of the assignment operator token.
    pub assign: usize,
}

pub struct Parser<'a> {
    pub toks: &'a [Token],
    pub pos: usize,
    /// Position used for "unexpected end" errors.
    pub end_line: usize,
}

pub type PResult<T> = Result<T, SourceError>;

const ASSIGN_OPS: [&str; 11] = ["=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="];

impl<'a> Parser<'a> {
    pub fn new(toks: &'a [Token], end_line: usize) -> Self {
        Self { toks, pos: 0, end_line }
    }

    fn peek(&self) -> Option<&'a Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }

    fn peek_at(&self, k: usize) -> Option<&'a Tok> {
        self.toks.get(self.pos + k).map(|t| &t.tok)
    }

    pub fn error_here(&self, msg: impl Into<String>) -> SourceError {
        match self.toks.get(self.pos) {
            Some(t) => SourceError { line: t.line, col: t.col, msg: msg.into() },
            None => SourceError { line: self.end_line, col: 1, msg: msg.into() },
        }
    }

    fn error_at(&self, idx: usize, msg: impl Into<String>) -> SourceError {
        let t = &self.toks[idx.min(self.toks.len() - 1)];
        SourceError { line: t.line, col: t.col, msg: msg.into() }
    }

    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Some(Tok::Punct(q)) if *q == p)
    }

    fn eat(&mut self, p: &str) -> bool {
        if self.is_punct(p) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, p: &str) -> PResult<()> {
        if self.eat(p) { Ok(()) } else { Err(self.error_here(format!("expected '{p}'{}", self.found()))) }
    }

    fn found(&self) -> String {
        match self.peek() {
            Some(t) => format!(", found '{}'", tok_text(t)),
            None => ", found the end of the SCoP".into(),
        }
    }

    fn ident(&mut self) -> PResult<String> {
        match self.peek() {
            Some(Tok::Ident(s)) => {
                self.pos += 1;
                Ok(s.clone())
            }
            _ => Err(self.error_here(format!("expected an identifier{}", self.found()))),
        }
    }

    /// The whole region: a sequence of statements.
    pub fn parse_region(&mut self) -> PResult<Vec<Node>> {
        let mut out = Vec::new();
        while self.pos < self.toks.len() {
            if let Some(n) = self.statement()? {
                out.push(n);
            }
        }
        Ok(out)
    }

    fn statement(&mut self) -> PResult<Option<Node>> {
        match self.peek() {
            Some(Tok::Punct(";")) => {
                self.pos += 1;
                Ok(None)
            }
            Some(Tok::Punct("{")) => {
                self.pos += 1;
                let mut body = Vec::new();
                while !self.is_punct("}") {
                    if self.peek().is_none() {
                        return Err(self.error_here("missing '}'"));
                    }
                    if let Some(n) = self.statement()? {
                        body.push(n);
                    }
                }
                self.pos += 1;
                Ok(Some(Node::Block(body)))
            }
            Some(Tok::Ident(kw)) => match kw.as_str() {
                "for" => self.for_loop().map(Some),
                "if" => self.if_stmt().map(Some),
                "while" | "do" | "goto" | "return" | "break" | "continue" | "switch" => {
                    Err(self.error_here(format!("{kw} statement inside a SCoP is not supported")))
                }
                _ => self.assignment().map(|s| Some(Node::Stmt(s))),
            },
            Some(t) => Err(self.error_here(format!("unexpected '{}' inside a SCoP", tok_text(t)))),
            None => Err(self.error_here("unexpected end of the SCoP")),
        }
    }

    fn for_loop(&mut self) -> PResult<Node> {
        let pos = self.pos;
        self.pos += 1;
        self.expect("(")?;
        let declares = matches!(self.peek(), Some(Tok::Ident(t)) if t == "int" || t == "long" || t == "unsigned");
        if declares {
            self.pos += 1;
        }
        let iter = self.ident()?;
        self.expect("=")?;
        let init_at = self.pos;
        let init = self.aff()?;
        let mut mentioned = Vec::new();
        init.vars(&mut mentioned);
        if mentioned.contains(&iter) {
            return Err(self.error_at(init_at, format!("the start of loop '{iter}' reads '{iter}' itself")));
        }
        self.expect(";")?;
        let cond_at = self.pos;
        let cond = self.cond()?;
        self.expect(";")?;
        let step = self.step(&iter)?;
        match bounds_iterator(&cond, &iter, step) {
            TestBound::Bounds => {}
            TestBound::Free => {
                return Err(self.error_at(cond_at, format!("loop test does not bound the iterator '{iter}'")));
            }
            TestBound::Wrong => {
                let dir = if step > 0 { "an upper" } else { "a lower" };
                return Err(self.error_at(
                    cond_at,
                    format!("loop test is not {dir} bound on '{iter}' (the loop steps by {step:+})"),
                ));
            }
        }
        self.expect(")")?;
        let body = self.statement()?.unwrap_or(Node::Block(Vec::new()));
        Ok(Node::For(For { pos, iter, declares, init, cond, step, body: Box::new(body) }))
    }

    /// `i++`, `++i`, `i += 1`, `i = i + 1` and their decrementing forms.
    fn step(&mut self, iter: &str) -> PResult<i64> {
        let start = self.pos;
        let unit = |p: &mut Self| -> PResult<i64> {
            match p.aff()?.constant() {
                Some(1) => Ok(1),
                _ => Err(p.error_at(start, "only unit loop steps are supported")),
            }
        };
        if self.eat("++") || self.eat("--") {
            let s = if self.toks[self.pos - 1].tok == Tok::Punct("++") { 1 } else { -1 };
            let name = self.ident()?;
            return if name == iter { Ok(s) } else { Err(self.error_at(start, "loop step must update the iterator")) };
        }
        let name = self.ident()?;
        if name != iter {
            return Err(self.error_at(start, format!("loop step updates '{name}', not the iterator '{iter}'")));
        }
        if self.eat("++") {
            Ok(1)
        } else if self.eat("--") {
            Ok(-1)
        } else if self.eat("+=") {
            unit(self)
        } else if self.eat("-=") {
            unit(self).map(|s| -s)
        } else if self.eat("=") {
            let e = self.aff()?;
            match e.linear() {
                Some(l) if l.coeff(iter) == 1 && l.coeffs.len() == 1 && l.constant.abs() == 1 => Ok(l.constant),
                _ => Err(self.error_at(start, "only unit loop steps are supported")),
            }
        } else {
            Err(self.error_here(format!("unsupported loop step{}", self.found())))
        }
    }

    fn if_stmt(&mut self) -> PResult<Node> {
        let pos = self.pos;
        self.pos += 1;
        self.expect("(")?;
        let cond = self.cond()?;
        self.expect(")")?;
        let then = self.statement()?.unwrap_or(Node::Block(Vec::new()));
        let els = if matches!(self.peek(), Some(Tok::Ident(e)) if e == "else") {
            self.pos += 1;
            Some(Box::new(self.statement()?.unwrap_or(Node::Block(Vec::new()))))
        } else {
            None
        };
        Ok(Node::If(If { pos, cond, then: Box::new(then), els }))
    }

    /// An expression statement; must be an assignment to a scalar or array element.
    fn assignment(&mut self) -> PResult<Stmt> {
        let first = self.pos;
        if let (Some(Tok::Ident(_)), Some(Tok::Ident(_))) = (self.peek(), self.peek_at(1)) {
            return Err(self.error_here("declarations inside a SCoP are not supported"));
        }
        let mut depth = 0i32;
        let mut assign = None;
        loop {
            let Some(t) = self.peek() else {
                return Err(self.error_at(first, "statement is missing its ';'"));
            };
            match t {
                Tok::Punct("(") | Tok::Punct("[") => depth += 1,
                Tok::Punct(")") | Tok::Punct("]") => depth -= 1,
                Tok::Punct("{") | Tok::Punct("}") => {
                    return Err(self.error_here("unexpected brace inside a statement"));
                }
                Tok::Punct(";") if depth == 0 => break,
                Tok::Punct(p) if depth == 0 && assign.is_none() && ASSIGN_OPS.contains(p) => assign = Some(self.pos),
                Tok::Punct(p) if assign.is_none() && (*p == "++" || *p == "--") => {
                    return Err(self.error_here(format!("'{p}' statements are not supported; write '+= 1'")));
                }
                // One write per statement: the model records only the left-hand side's.
                Tok::Punct(p) if ASSIGN_OPS.contains(p) || *p == "++" || *p == "--" => {
                    return Err(self.error_here(format!("'{p}' inside an expression is not supported")));
                }
                Tok::Punct(",") if depth == 0 => {
                    return Err(self.error_here("comma expressions are not supported; write one statement each"));
                }
                _ => {}
            }
            self.pos += 1;
        }
        self.pos += 1;
        let assign = assign.ok_or_else(|| self.error_at(first, "statement is not an assignment"))?;
        Ok(Stmt { first, last: self.pos, assign })
    }

    /// Affine expression (additive level).
    pub fn aff(&mut self) -> PResult<Aff> {
        let mut lhs = self.term()?;
        loop {
            if self.eat("+") {
                lhs = Aff::Add(Box::new(lhs), Box::new(self.term()?));
            } else if self.eat("-") {
                lhs = Aff::Sub(Box::new(lhs), Box::new(self.term()?));
            } else {
                return Ok(lhs);
            }
        }
    }

    fn term(&mut self) -> PResult<Aff> {
        let start = self.pos;
        let mut lhs = self.unary()?;
        loop {
            if self.eat("*") {
                let rhs = self.unary()?;
                lhs = match (lhs.constant(), rhs.constant()) {
                    (Some(c), _) => Aff::Scale(c, Box::new(rhs)),
                    (_, Some(c)) => Aff::Scale(c, Box::new(lhs)),
                    _ => {
                        return Err(
                            self.error_at(start, format!("non-affine expression {}", self.text(start, self.pos)))
                        );
                    }
                };
            } else if self.is_punct("/") || self.is_punct("%") {
                let div = self.eat("/");
                if !div {
                    self.pos += 1;
                }
                let rhs = self.unary()?;
                match rhs.constant() {
                    Some(d) if d > 0 && div => lhs = Aff::Div(Box::new(lhs), d),
                    Some(d) if d > 0 => lhs = Aff::Mod(Box::new(lhs), d),
                    _ => {
                        let what = if div { "division" } else { "remainder" };
                        return Err(self.error_at(
                            start,
                            format!(
                                "non-affine {what} {} (the divisor must be a positive constant)",
                                self.text(start, self.pos)
                            ),
                        ));
                    }
                }
            } else {
                return Ok(lhs);
            }
        }
    }

    fn unary(&mut self) -> PResult<Aff> {
        if self.eat("-") {
            return Ok(Aff::Neg(Box::new(self.unary()?)));
        }
        if self.eat("+") {
            return self.unary();
        }
        match self.peek() {
            Some(Tok::Int(v)) => {
                self.pos += 1;
                Ok(Aff::Int(*v))
            }
            Some(Tok::Ident(name)) => {
                let start = self.pos;
                self.pos += 1;
                if self.is_punct("(") {
                    let lname = name.to_ascii_lowercase();
                    if lname == "min" || lname == "max" {
                        self.pos += 1;
                        let mut acc = self.aff()?;
                        while self.eat(",") {
                            let next = self.aff()?;
                            acc = if lname == "min" {
                                Aff::Min(Box::new(acc), Box::new(next))
                            } else {
                                Aff::Max(Box::new(acc), Box::new(next))
                            };
                        }
                        self.expect(")")?;
                        return Ok(acc);
                    }
                    return Err(self.error_at(start, format!("call to '{name}' in an affine expression")));
                }
                if self.is_punct("[") {
                    return Err(self.error_at(start, format!("array element '{name}[...]' in an affine expression")));
                }
                Ok(Aff::Var(name.clone()))
            }
            Some(Tok::Punct("(")) => {
                self.pos += 1;
                let e = self.aff()?;
                self.expect(")")?;
                Ok(e)
            }
            Some(Tok::Other(s)) => Err(self.error_here(format!("non-integer '{s}' in an affine expression"))),
            _ => Err(self.error_here(format!("expected an affine expression{}", self.found()))),
        }
    }

    /// Condition: `||` of `&&` of comparisons, parenthesised freely.
    pub fn cond(&mut self) -> PResult<Cond> {
        let mut lhs = self.cond_and()?;
        while self.eat("||") {
            lhs = Cond::Or(Box::new(lhs), Box::new(self.cond_and()?));
        }
        Ok(lhs)
    }

    fn cond_and(&mut self) -> PResult<Cond> {
        let mut lhs = self.cond_atom()?;
        while self.eat("&&") {
            lhs = Cond::And(Box::new(lhs), Box::new(self.cond_atom()?));
        }
        Ok(lhs)
    }

    fn cond_atom(&mut self) -> PResult<Cond> {
        let save = self.pos;
        // First try `aff op aff`; a leading '(' may instead open a nested condition.
        let first_try = self.aff().and_then(|a| {
            let op = self.cmp_op()?;
            Ok((a, op))
        });
        match first_try {
            Ok((a, op)) => {
                let b = self.aff()?;
                Ok(Cond::Cmp(a, op, b))
            }
            Err(e) => {
                self.pos = save;
                if self.eat("(") {
                    let c = self.cond()?;
                    self.expect(")")?;
                    Ok(c)
                } else if self.is_punct("!") {
                    Err(self.error_here("'!' in a condition is not supported; write the comparison"))
                } else {
                    Err(e)
                }
            }
        }
    }

    fn cmp_op(&mut self) -> PResult<CmpOp> {
        let op = match self.peek() {
            Some(Tok::Punct("<")) => CmpOp::Lt,
            Some(Tok::Punct("<=")) => CmpOp::Le,
            Some(Tok::Punct(">")) => CmpOp::Gt,
            Some(Tok::Punct(">=")) => CmpOp::Ge,
            Some(Tok::Punct("==")) => CmpOp::Eq,
            Some(Tok::Punct("!=")) => CmpOp::Ne,
            _ => return Err(self.error_here(format!("expected a comparison{}", self.found()))),
        };
        self.pos += 1;
        Ok(op)
    }

    /// Source-like text of tokens `a..b`, for messages.
    pub fn text(&self, a: usize, b: usize) -> String {
        let mut s = String::new();
        for t in &self.toks[a..b.min(self.toks.len())] {
            s.push_str(&tok_text(&t.tok));
        }
        s
    }
}

pub fn tok_text(t: &Tok) -> String {
    match t {
        Tok::Ident(s) | Tok::Other(s) => s.clone(),
        Tok::Int(v) => v.to_string(),
        Tok::Punct(p) => p.to_string(),
    }
}

/// What a loop test says about the loop's iterator.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TestBound {
    /// The values it admits are closed downward (step +1) or upward (step
    /// -1) and bounded: the loop runs exactly over them, which is what the
    /// polyhedral domain says.
    Bounds,
    /// It does not involve the iterator.
    Free,
    /// It bounds the wrong way (`i > N` with `i++`), or not monotonically
    /// (`i == N`, `i % 2 < 1`): the loop would stop early or never.
    Wrong,
}

/// Classifies loop test `c` of iterator `iter` stepping by `step`.
pub fn bounds_iterator(c: &Cond, iter: &str, step: i64) -> TestBound {
    use TestBound::*;
    match c {
        Cond::Cmp(a, op, b) => {
            let f = Aff::Sub(Box::new(a.clone()), Box::new(b.clone()));
            let Some(m) = f.monotone_in(iter) else { return Wrong };
            if m == 0 {
                return Free;
            }
            // `f < 0` is closed downward when f never decreases, `f > 0` when it never increases.
            let want = match op {
                CmpOp::Lt | CmpOp::Le => 1,
                CmpOp::Gt | CmpOp::Ge => -1,
                CmpOp::Eq | CmpOp::Ne => return Wrong,
            };
            if m * step.signum() as i8 == want { Bounds } else { Wrong }
        }
        Cond::And(a, b) => match (bounds_iterator(a, iter, step), bounds_iterator(b, iter, step)) {
            (Wrong, _) | (_, Wrong) => Wrong,
            (Free, Free) => Free,
            _ => Bounds,
        },
        Cond::Or(a, b) => match (bounds_iterator(a, iter, step), bounds_iterator(b, iter, step)) {
            (Wrong, _) | (_, Wrong) => Wrong,
            (Bounds, Bounds) => Bounds,
            _ => Free,
        },
    }
}

/// Negation of a condition (De Morgan), used for `else` branches.
pub fn negate(c: &Cond) -> Cond {
    match c {
        Cond::Cmp(a, op, b) => {
            let op = match op {
                CmpOp::Lt => CmpOp::Ge,
                CmpOp::Le => CmpOp::Gt,
                CmpOp::Gt => CmpOp::Le,
                CmpOp::Ge => CmpOp::Lt,
                CmpOp::Eq => CmpOp::Ne,
                CmpOp::Ne => CmpOp::Eq,
            };
            Cond::Cmp(a.clone(), op, b.clone())
        }
        Cond::And(a, b) => Cond::Or(Box::new(negate(a)), Box::new(negate(b))),
        Cond::Or(a, b) => Cond::And(Box::new(negate(a)), Box::new(negate(b))),
    }
}
