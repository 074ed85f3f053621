//! Frontend: C text -> [`Scop`].
//!
//! Finds every region between `#pragma scop` and `#pragma endscop`, parses it
//! with a small recursive-descent parser, and builds the polyhedral
//! description of each statement as ISL text: its iteration domain, its
//! original (2d+1) schedule and its affine accesses. Everything outside the
//! region is left to be copied through untouched.

pub mod affine;
pub mod context;
pub mod lexer;
pub mod parser;

use std::collections::{BTreeMap, BTreeSet};

use affine::{Aff, Cond};
use lexer::{Tok, Token};
use parser::{Node, Parser, negate};

/// An error at a position of the input file (1-based line and column).
#[derive(Clone, Debug, PartialEq)]
pub struct SourceError {
    pub line: usize,
    pub col: usize,
    pub msg: String,
}

/// Byte range of a SCoP region, pragma lines included.
#[derive(Clone, Debug)]
pub struct Region {
    pub start: usize,
    pub end: usize,
    /// Line of `#pragma scop`.
    pub line: usize,
    /// Indentation of the `#pragma scop` line, reused for the generated code.
    pub indent: String,
    /// Byte range of the code between the two pragma lines.
    pub body: (usize, usize),
    /// That code, kept for the last-resort fallback (the SCoP left as written).
    pub code: String,
}

/// The element type of a SCoP's arrays and scalars: what the harness
/// allocates and the features count in bytes. C declarations outside the
/// SCoP are not parsed, so it is read from PolyBench's convention, a
/// `#define DATA_TYPE float` before the region; anything else is `double`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Element {
    #[default]
    Double,
    Float,
}

impl Element {
    /// The element type `before` (the text preceding a region) defines.
    pub fn declared_in(before: &str) -> Element {
        let mut e = Element::Double;
        for line in before.lines() {
            let words: Vec<&str> = line.trim().trim_start_matches('#').split_whitespace().collect();
            if line.trim_start().starts_with('#') && words.len() >= 3 && words[..2] == ["define", "DATA_TYPE"] {
                e = if words[2] == "float" { Element::Float } else { Element::Double };
            }
        }
        e
    }

    pub fn bytes(self) -> u64 {
        match self {
            Element::Double => 8,
            Element::Float => 4,
        }
    }

    pub fn c_type(self) -> &'static str {
        match self {
            Element::Double => "double",
            Element::Float => "float",
        }
    }
}

/// One static control part: the statements of a region and their model.
#[derive(Clone, Debug)]
pub struct Scop {
    pub region: Region,
    /// Symbolic sizes: identifiers in bounds and subscripts that are not iterators.
    pub params: Vec<String>,
    pub statements: Vec<Statement>,
    /// Every identifier written in the region (generated names must avoid them).
    pub identifiers: BTreeSet<String>,
    /// Scalars the statements read but never write (`alpha`, `beta`): inputs
    /// a driver must supply. All-capital names are taken for macros.
    pub scalars: Vec<String>,
    /// Iterators the enclosing function declares as plain `int` (and does
    /// not read after the SCoP): the tiled code assigns them rather than
    /// declaring its own, so the function's declaration stays used.
    pub declared_outside: BTreeSet<String>,
    /// Element type of the arrays and scalars.
    pub element: Element,
}

#[derive(Clone, Debug)]
pub struct Statement {
    /// ISL tuple name, `S0`, `S1`, ... in textual order.
    pub name: String,
    /// Enclosing loop iterators, outermost first.
    pub iterators: Vec<String>,
    /// Constraints of the iteration domain in ISL syntax (conjunction).
    pub constraints: Vec<String>,
    /// Original execution order as a 2d+1 schedule.
    pub schedule: Vec<SchedDim>,
    pub accesses: Vec<Access>,
    /// The statement's source text, from its first token to its `;`.
    pub text: String,
    /// Byte ranges in `text` of iterator uses, with the iterator's index.
    pub iter_uses: Vec<(usize, usize, usize)>,
    pub line: usize,
}

/// One dimension of the original 2d+1 schedule.
#[derive(Clone, Debug, PartialEq)]
pub enum SchedDim {
    /// Textual position among siblings.
    Pos(i64),
    /// Iterator index and direction (+1 for `i++`, -1 for `i--`).
    Iter(usize, i64),
}

#[derive(Clone, Debug)]
pub struct Access {
    pub array: String,
    pub write: bool,
    /// One affine subscript per dimension (empty for a scalar).
    pub subscripts: Vec<Aff>,
}

impl Access {
    /// Per subscript, the source iterator it is plus a constant (`None` for
    /// a constant) and the constant; `None` for the whole access when a
    /// subscript is neither (or it has none): the subscripts that packing
    /// (`codegen::pack`) copies by and tells apart in the printed code.
    pub fn unit_terms(&self) -> Option<Vec<(Option<String>, i64)>> {
        if self.subscripts.is_empty() {
            return None;
        }
        self.subscripts
            .iter()
            .map(|aff| {
                let l = aff.linear()?;
                let mut terms = l.coeffs.iter();
                match (terms.next(), terms.next()) {
                    (None, _) => Some((None, l.constant)),
                    (Some((v, 1)), None) => Some((Some(v.clone()), l.constant)),
                    _ => None,
                }
            })
            .collect()
    }
}

impl Scop {
    /// Arrays and scalars that some statement writes; every other one is
    /// read-only in the SCoP (a copy of it never goes stale).
    pub fn written(&self) -> BTreeSet<&str> {
        self.statements.iter().flat_map(|s| &s.accesses).filter(|a| a.write).map(|a| a.array.as_str()).collect()
    }

    /// `[N, M] -> ` prefix for ISL objects.
    pub fn param_prefix(&self) -> String {
        format!("[{}] -> ", self.params.join(", "))
    }

    /// Iteration domain of statement `s`, in ISL syntax.
    pub fn domain_isl(&self, s: &Statement) -> String {
        format!("{}{{ {} }}", self.param_prefix(), s.domain_piece())
    }
}

impl Statement {
    /// ISL tuple of the statement's instances: `S0[i, j, k]`.
    pub fn tuple(&self) -> String {
        format!("{}[{}]", self.name, self.iterators.join(", "))
    }

    /// ISL map piece of one of its accesses: `S0[i, j] -> A[i, j + 1]`.
    pub fn access_isl(&self, a: &Access) -> String {
        let subs: Vec<String> = a.subscripts.iter().map(|e| e.isl()).collect();
        format!("{} -> {}[{}]", self.tuple(), a.array, subs.join(", "))
    }

    /// Whether `a` touches an element the statement writes itself: its
    /// accumulator, as `C[i][j]` in `C[i][j] += ...`.
    pub fn writes_same(&self, a: &Access) -> bool {
        self.accesses.iter().any(|w| w.write && w.array == a.array && w.subscripts == a.subscripts)
    }

    /// The statement's part of a union set: `S0[i, j] : constraints`.
    pub fn domain_piece(&self) -> String {
        if self.constraints.is_empty() {
            self.tuple()
        } else {
            format!("{} : {}", self.tuple(), self.constraints.join(" and "))
        }
    }
}

/// Parses every SCoP region of `src`.
pub fn parse_file(src: &str) -> Result<Vec<Scop>, SourceError> {
    let regions = find_regions(src)?;
    if regions.is_empty() {
        return Err(SourceError { line: 1, col: 1, msg: "no '#pragma scop' region found".into() });
    }
    regions.into_iter().map(|(region, body)| parse_region(src, region, body)).collect()
}

/// Locates `#pragma scop` / `#pragma endscop` pairs; returns each region and
/// the byte range of its body.
/// Byte range of a region's body and the line it starts on.
type Body = (usize, usize, usize);

fn find_regions(src: &str) -> Result<Vec<(Region, Body)>, SourceError> {
    let mut out = Vec::new();
    let mut open: Option<(usize, usize, usize, String)> = None; // start, body start, line, indent
    let mut offset = 0;
    for (n, line) in src.split_inclusive('\n').enumerate() {
        let words: Vec<&str> = line.trim().trim_start_matches('#').split_whitespace().collect();
        let is_pragma = line.trim_start().starts_with('#') && words.first() == Some(&"pragma");
        if is_pragma && words.get(1) == Some(&"scop") {
            if let Some((_, _, l, _)) = open {
                return Err(SourceError {
                    line: n + 1,
                    col: 1,
                    msg: format!("'#pragma scop' inside the SCoP opened at line {l}"),
                });
            }
            let indent = line[..line.len() - line.trim_start().len()].to_string();
            open = Some((offset, offset + line.len(), n + 1, indent));
        } else if is_pragma && words.get(1) == Some(&"endscop") {
            let Some((start, body, l, indent)) = open.take() else {
                return Err(SourceError {
                    line: n + 1,
                    col: 1,
                    msg: "'#pragma endscop' without '#pragma scop'".into(),
                });
            };
            let code = src[body..offset].to_string();
            let region = Region { start, end: offset + line.len(), line: l, indent, body: (body, offset), code };
            out.push((region, (body, offset, l + 1)));
        }
        offset += line.len();
    }
    if let Some((_, _, l, _)) = open {
        return Err(SourceError { line: l, col: 1, msg: "'#pragma scop' without '#pragma endscop'".into() });
    }
    Ok(out)
}

fn parse_region(src: &str, region: Region, (body, end, line): Body) -> Result<Scop, SourceError> {
    let element = Element::declared_in(&src[..region.start]);
    let toks = lexer::lex(src, body, end, line)?;
    let end_line = line + src[body..end].matches('\n').count();
    let mut parser = Parser::new(&toks, end_line);
    let nodes = parser.parse_region()?;
    if nodes.is_empty() {
        return Err(SourceError { line: region.line, col: 1, msg: "the SCoP holds no statement".into() });
    }
    let identifiers =
        toks.iter().filter_map(|t| if let Tok::Ident(s) = &t.tok { Some(s.clone()) } else { None }).collect();
    let mut loops = BTreeMap::new();
    loop_iterators(&nodes, &mut loops);
    let iterators: BTreeSet<String> = loops.keys().cloned().collect();
    let outer: BTreeSet<String> = loops.into_iter().filter(|&(_, outer)| outer).map(|(n, _)| n).collect();
    let (ints, blocks) = context::ints_in_scope(src, region.start);
    if let Some(t) = context::first_read_after(src, region.end, blocks, &outer) {
        let name = match &t.tok {
            Tok::Ident(n) => n.as_str(),
            _ => "?",
        };
        return Err(SourceError {
            line: t.line,
            col: t.col,
            msg: format!(
                "'{name}', an iterator of the SCoP at line {}, is read after it, but tiled loops leave it \
                 with another value; assign '{name}' before this use",
                region.line
            ),
        });
    }
    let declared_outside = outer.intersection(&ints).cloned().collect();
    let mut b =
        Builder { src, toks: &toks, end_line, stmts: Vec::new(), params: Vec::new(), rhs: Vec::new(), iterators };
    let mut ctx = Ctx::default();
    for (k, n) in nodes.iter().enumerate() {
        ctx.sched.push(SchedDim::Pos(k as i64));
        b.node(n, &mut ctx)?;
        ctx.sched.pop();
    }
    let mut scop = b.finish(region, identifiers)?;
    scop.declared_outside = declared_outside;
    scop.element = element;
    Ok(scop)
}

/// Every loop iterator of the SCoP, and whether some loop uses it without
/// declaring it (so it is the enclosing function's variable).
fn loop_iterators(nodes: &[Node], out: &mut BTreeMap<String, bool>) {
    for n in nodes {
        match n {
            Node::For(f) => {
                *out.entry(f.iter.clone()).or_default() |= !f.declares;
                loop_iterators(std::slice::from_ref(&f.body), out);
            }
            Node::If(i) => {
                loop_iterators(std::slice::from_ref(&i.then), out);
                if let Some(e) = &i.els {
                    loop_iterators(std::slice::from_ref(e), out);
                }
            }
            Node::Block(b) => loop_iterators(b, out),
            Node::Stmt(_) => {}
        }
    }
}

/// Enclosing loops and guards while walking the tree.
#[derive(Default, Clone)]
struct Ctx {
    iters: Vec<String>,
    constraints: Vec<String>,
    sched: Vec<SchedDim>,
}

struct Builder<'a> {
    src: &'a str,
    toks: &'a [Token],
    end_line: usize,
    stmts: Vec<Statement>,
    params: Vec<String>,
    /// Token range of each statement's right-hand side (for scalar reads).
    rhs: Vec<(usize, usize)>,
    /// Every loop iterator of the SCoP: outside its loop, its value is what
    /// the original code left there, which a transformed SCoP does not keep.
    iterators: BTreeSet<String>,
}

impl Builder<'_> {
    fn node(&mut self, n: &Node, ctx: &mut Ctx) -> Result<(), SourceError> {
        match n {
            Node::Block(items) => {
                for (k, item) in items.iter().enumerate() {
                    ctx.sched.push(SchedDim::Pos(k as i64));
                    self.node(item, ctx)?;
                    ctx.sched.pop();
                }
            }
            Node::For(f) => {
                if ctx.iters.contains(&f.iter) {
                    return Err(self.err_at_ident(&f.iter, format!("iterator '{}' is reused by a nested loop", f.iter)));
                }
                let mut inner = ctx.clone();
                inner.iters.push(f.iter.clone());
                let mut used = Vec::new();
                f.init.vars(&mut used);
                f.cond.vars(&mut used);
                self.check_scope(&used, &inner.iters, f.pos, "loop bound")?;
                let bound = Cond::Cmp(
                    Aff::Var(f.iter.clone()),
                    if f.step > 0 { affine::CmpOp::Ge } else { affine::CmpOp::Le },
                    f.init.clone(),
                );
                self.note_params(&bound, &inner.iters);
                self.note_params(&f.cond, &inner.iters);
                inner.constraints.push(bound.isl());
                inner.constraints.push(f.cond.isl());
                inner.sched.push(SchedDim::Iter(inner.iters.len() - 1, f.step));
                self.node(&f.body, &mut inner)?;
            }
            Node::If(i) => {
                let mut used = Vec::new();
                i.cond.vars(&mut used);
                self.check_scope(&used, &ctx.iters, i.pos, "condition")?;
                self.note_params(&i.cond, &ctx.iters);
                let mut then = ctx.clone();
                then.constraints.push(i.cond.isl());
                self.node(&i.then, &mut then)?;
                if let Some(e) = &i.els {
                    let mut els = ctx.clone();
                    els.constraints.push(negate(&i.cond).isl());
                    self.node(e, &mut els)?;
                }
            }
            Node::Stmt(s) => self.statement(s, ctx)?,
        }
        Ok(())
    }

    /// Rejects a loop iterator read where no loop of it encloses the read.
    fn check_scope(&self, used: &[String], enclosing: &[String], pos: usize, what: &str) -> Result<(), SourceError> {
        match used.iter().find(|v| self.iterators.contains(*v) && !enclosing.contains(v)) {
            Some(v) => Err(pos_err(&self.toks[pos], format!("{what} reads the iterator '{v}' outside its loop"))),
            None => Ok(()),
        }
    }

    fn note_params(&mut self, c: &Cond, iters: &[String]) {
        let mut vars = Vec::new();
        c.vars(&mut vars);
        self.add_params(vars, iters);
    }

    fn add_params(&mut self, vars: Vec<String>, iters: &[String]) {
        for v in vars {
            if !iters.contains(&v) && !self.params.contains(&v) {
                self.params.push(v);
            }
        }
    }

    fn err_at_ident(&self, name: &str, msg: String) -> SourceError {
        let t = self.toks.iter().find(|t| t.tok == Tok::Ident(name.to_string()));
        SourceError { line: t.map_or(self.end_line, |t| t.line), col: t.map_or(1, |t| t.col), msg }
    }

    fn statement(&mut self, s: &parser::Stmt, ctx: &Ctx) -> Result<(), SourceError> {
        let toks = self.toks;
        let mut accesses = Vec::new();
        // Left-hand side: `x` or `A[e]...[e]`.
        let lhs = &toks[s.first..s.assign];
        let array = match lhs.first().map(|t| &t.tok) {
            Some(Tok::Ident(n)) => n.clone(),
            _ => return Err(pos_err(&toks[s.first], "left-hand side must be a variable or an array element")),
        };
        if self.iterators.contains(&array) {
            return Err(pos_err(&toks[s.first], format!("assignment to the loop iterator '{array}'")));
        }
        for t in &toks[s.first..s.last] {
            if let Tok::Ident(n) = &t.tok
                && self.iterators.contains(n)
                && !ctx.iters.contains(n)
            {
                return Err(pos_err(t, format!("statement reads the iterator '{n}' outside its loop")));
            }
        }
        let (subs, used) = self.subscripts(&toks[s.first + 1..s.assign], ctx)?;
        if used != s.assign - s.first - 1 {
            return Err(pos_err(&toks[s.first + 1 + used], "left-hand side must be a variable or an array element"));
        }
        let compound = toks[s.assign].tok != Tok::Punct("=");
        if compound {
            accesses.push(Access { array: array.clone(), write: false, subscripts: subs.clone() });
        }
        accesses.push(Access { array, write: true, subscripts: subs });
        // Right-hand side: every `A[...]` is a read; calls and scalars are kept verbatim.
        let mut k = s.assign + 1;
        while k < s.last - 1 {
            if let Tok::Ident(name) = &toks[k].tok
                && toks.get(k + 1).map(|t| &t.tok) == Some(&Tok::Punct("["))
            {
                let (subs, used) = self.subscripts(&toks[k + 1..s.last - 1], ctx)?;
                accesses.push(Access { array: name.clone(), write: false, subscripts: subs });
                k += 1 + used;
                continue;
            }
            k += 1;
        }
        let start = toks[s.first].start;
        let text = self.src[start..toks[s.last - 1].end].to_string();
        let iter_uses = toks[s.first..s.last]
            .iter()
            .filter_map(|t| match &t.tok {
                Tok::Ident(n) => ctx.iters.iter().position(|i| i == n).map(|idx| (t.start - start, t.end - start, idx)),
                _ => None,
            })
            .collect();
        self.stmts.push(Statement {
            name: format!("S{}", self.stmts.len()),
            iterators: ctx.iters.clone(),
            constraints: ctx.constraints.clone(),
            schedule: ctx.sched.clone(),
            accesses,
            text,
            iter_uses,
            line: toks[s.first].line,
        });
        self.rhs.push((s.assign + 1, s.last - 1));
        Ok(())
    }

    /// Parses `[e][e]...` at the start of `toks`; returns the subscripts and
    /// the number of tokens consumed.
    fn subscripts(&mut self, toks: &[Token], ctx: &Ctx) -> Result<(Vec<Aff>, usize), SourceError> {
        let mut subs = Vec::new();
        let mut k = 0;
        while toks.get(k).map(|t| &t.tok) == Some(&Tok::Punct("[")) {
            let close = matching(toks, k).ok_or_else(|| pos_err(&toks[k], "unbalanced '['"))?;
            let inner = &toks[k + 1..close];
            if inner.is_empty() {
                return Err(pos_err(&toks[k], "empty subscript"));
            }
            let mut p = Parser::new(inner, toks[close].line);
            let text = p.text(0, inner.len());
            let e = match p.aff() {
                Ok(e) if p.pos == inner.len() => e,
                _ => return Err(pos_err(&inner[0], format!("non-affine subscript [{text}]"))),
            };
            let mut vars = Vec::new();
            e.vars(&mut vars);
            self.add_params(vars, &ctx.iters);
            subs.push(e);
            k = close + 1;
        }
        Ok((subs, k))
    }

    fn finish(mut self, region: Region, identifiers: BTreeSet<String>) -> Result<Scop, SourceError> {
        // Scalars written inside the SCoP carry dependences: model them as 0-d arrays.
        let written: BTreeSet<String> = self
            .stmts
            .iter()
            .flat_map(|s| s.accesses.iter().filter(|a| a.write && a.subscripts.is_empty()).map(|a| a.array.clone()))
            .collect();
        let arrays: BTreeSet<String> =
            self.stmts.iter().flat_map(|s| s.accesses.iter().map(|a| a.array.clone())).collect();
        let mut scalars: Vec<String> = Vec::new();
        for (s, &(a, b)) in self.stmts.iter_mut().zip(&self.rhs) {
            for k in a..b {
                if let Tok::Ident(n) = &self.toks[k].tok {
                    let is_call_or_array = matches!(self.toks.get(k + 1).map(|t| &t.tok), Some(Tok::Punct("(" | "[")));
                    if written.contains(n) && !is_call_or_array {
                        s.accesses.push(Access { array: n.clone(), write: false, subscripts: Vec::new() });
                    } else if !is_call_or_array
                        && !arrays.contains(n)
                        && !s.iterators.contains(n)
                        && !self.params.contains(n)
                        && !scalars.contains(n)
                        && n.chars().any(|c| c.is_ascii_lowercase())
                    {
                        scalars.push(n.clone());
                    }
                }
            }
        }
        if let Some(p) = self.params.iter().find(|p| arrays.contains(*p)) {
            return Err(
                self.err_at_ident(p, format!("'{p}' is used as a size or subscript but also assigned in the SCoP"))
            );
        }
        Ok(Scop {
            region,
            params: self.params,
            statements: self.stmts,
            identifiers,
            scalars,
            declared_outside: BTreeSet::new(),
            element: Element::Double,
        })
    }
}

fn matching(toks: &[Token], open: usize) -> Option<usize> {
    let mut depth = 0;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match t.tok {
            Tok::Punct("[") | Tok::Punct("(") => depth += 1,
            Tok::Punct("]") | Tok::Punct(")") => {
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

fn pos_err(t: &Token, msg: impl Into<String>) -> SourceError {
    SourceError { line: t.line, col: t.col, msg: msg.into() }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GEMM: &str = "void f() {\n#pragma scop\n  for (i = 0; i < _PB_NI; i++) {\n    for (j = 0; j < _PB_NJ; j++)\n      C[i][j] *= beta;\n    for (k = 0; k < _PB_NK; k++)\n      for (j = 0; j < _PB_NJ; j++)\n        C[i][j] += alpha * A[i][k] * B[k][j];\n  }\n#pragma endscop\n}\n";

    #[test]
    fn element_type_follows_data_type() {
        assert_eq!(parse_file(GEMM).unwrap()[0].element, Element::Double);
        let float = format!("#define DATA_TYPE float\n#include <x.h>\n{GEMM}");
        assert_eq!(parse_file(&float).unwrap()[0].element, Element::Float);
        // Only a definition before the region counts, and the last one wins.
        let after = format!("{GEMM}#define DATA_TYPE float\n");
        assert_eq!(parse_file(&after).unwrap()[0].element, Element::Double);
        let both = format!("#  define DATA_TYPE float\n#define DATA_TYPE double\n{GEMM}");
        assert_eq!(parse_file(&both).unwrap()[0].element, Element::Double);
        assert_eq!((Element::Float.bytes(), Element::Float.c_type()), (4, "float"));
    }

    #[test]
    fn polybench_gemm_model() {
        let scops = parse_file(GEMM).unwrap();
        let s = &scops[0];
        assert_eq!(s.params, vec!["_PB_NI", "_PB_NJ", "_PB_NK"]);
        assert_eq!(s.statements.len(), 2);
        let s1 = &s.statements[1];
        assert_eq!(s1.iterators, vec!["i", "k", "j"]);
        assert_eq!(s1.schedule[1], SchedDim::Iter(0, 1));
        assert_eq!(s1.schedule[2], SchedDim::Pos(1));
        let arrays: Vec<_> = s1.accesses.iter().map(|a| (a.array.as_str(), a.write)).collect();
        assert_eq!(arrays, vec![("C", false), ("C", true), ("A", false), ("B", false)]);
        assert_eq!(s1.text, "C[i][j] += alpha * A[i][k] * B[k][j];");
        assert_eq!(s1.iter_uses.len(), 6);
        assert_eq!(s.region.line, 2);
    }

    fn err(src: &str) -> SourceError {
        parse_file(src).unwrap_err()
    }

    #[test]
    fn rejects_with_positions() {
        let e = err("#pragma scop\nfor (i = 0; i < N; i++)\n  A[i*i] = 0;\n#pragma endscop\n");
        assert_eq!((e.line, e.col), (3, 5));
        assert!(e.msg.contains("non-affine subscript [i*i]"), "{}", e.msg);
        let e = err("#pragma scop\nwhile (x) A[0] = 1;\n#pragma endscop\n");
        assert!(e.msg.contains("while statement inside a SCoP"), "{}", e.msg);
        let e = err("#pragma scop\nfor (i = 0; i < N; i += 2) A[i] = 0;\n#pragma endscop\n");
        assert!(e.msg.contains("unit loop steps"), "{}", e.msg);
        let e = err("int x;\n");
        assert!(e.msg.contains("no '#pragma scop'"));
        let e = err("#pragma scop\nfor (i = 0; i < N; i++) A[i] = 0\n#pragma endscop\n");
        assert!(e.msg.contains("';'"), "{}", e.msg);
    }

    /// C the model cannot describe is refused at its position, never tiled.
    #[test]
    fn rejects_what_it_cannot_model() {
        let scop = |body: &str| format!("#pragma scop\n{body}\n#pragma endscop\n");
        let cases = [
            ("for (i = 0; i < N; i++) { A[i] = 0; i += 1; }", "assignment to the loop iterator 'i'"),
            ("for (i = 0; i < N; i++) A[i] = (s = s + 1.0);", "'=' inside an expression"),
            ("for (i = 0; i < N; i++) A[i] = B[i]++;", "'++' inside an expression"),
            (
                "for (i = 0; i < N; i++) A[i] = 0; for (j = 0; j < i; j++) B[j] = 1;",
                "reads the iterator 'i' outside its loop",
            ),
            ("for (i = 0; i < N; i++) A[i] = 0; B[0] = A[i];", "reads the iterator 'i' outside its loop"),
            ("for (i = 0; i < N; i = i - 1) A[i] = 0;", "not a lower bound on 'i'"),
            ("for (i = 0; i > N; i++) A[i] = 0;", "not an upper bound on 'i'"),
            ("for (i = 0; i != N; i++) A[i] = 0;", "not an upper bound on 'i'"),
            ("for (i = 0; i % 4 < 3; i++) A[i] = 0;", "not an upper bound on 'i'"),
            ("for (i = 0; N > 0; i++) A[i] = 0;", "does not bound the iterator 'i'"),
            ("for (i = 0; i < N; i += 2) A[i] = 0;", "unit loop steps"),
            ("for (i = 0; i < N; i++) A[i / j] = 0;", "non-affine"),
            ("for (i = 0; i < N; i++) { A[i] = 0, B[i] = 1; }", "comma expressions"),
            ("for (i = 0; i < N; i++) N = 2;", "'N' is used as a size"),
        ];
        for (body, want) in cases {
            let e = parse_file(&scop(body)).unwrap_err();
            assert!(e.msg.contains(want), "{body}: got '{}', want '{want}'", e.msg);
            assert!(e.line >= 2, "{body}: line {}", e.line);
        }
        // And what it can model is accepted: C division and remainder, decreasing bounds.
        for body in [
            "for (i = 0; i < N; i++) for (j = (i - 3) / 2; j < 2; j++) A[j % 3] += 1.0;",
            "for (i = N; i >= -N / 2; i--) A[i] = 0;",
            "for (i = 0; i < N && i <= M; i++) A[i] = 0;",
        ] {
            assert!(parse_file(&scop(body)).is_ok(), "{body}");
        }
    }

    #[test]
    fn scalars_guards_and_else() {
        let src = "#pragma scop\nfor (i = N-1; i >= 0; i--) { t = 0; if (i > 2 && i != M) A[i] = t + sqrt(B[i]); else A[i] = SCALAR_VAL(0.5); }\n#pragma endscop\n";
        let s = &parse_file(src).unwrap()[0];
        assert_eq!(s.params, vec!["N", "M"]);
        assert_eq!(s.statements[0].schedule[1], SchedDim::Iter(0, -1));
        assert!(s.statements[1].accesses.iter().any(|a| a.array == "t" && !a.write));
        assert!(s.statements[2].constraints.last().unwrap().contains("or"));
    }
}
