//! Parametric rectangular tiling of the permutable bands of a schedule.
//!
//! ISL schedules are affine, so `T * t` with a symbolic tile size `T` cannot
//! be written directly. tss uses the construction of Renganarayanan et al.,
//! "Parameterized tiled loops for free" (PLDI 2007): each tile loop scans the
//! *tile origin* `o` of a band member `s`, constrained only by the affine
//! relation `o <= s <= o + T - 1` (the "outset" of the domain), and code
//! generation then starts each tile loop at the first multiple of `T` not
//! below ISL's lower bound and steps it by `T`. Under that stride every point
//! lies in exactly one tile; because ISL generated the loops for every value
//! of `o`, its bounds and guards stay valid for the multiples we visit.
//!
//! The schedule tree is flattened into one union map whose dimensions each
//! have a single role ([`Dim`]): sequence positions, tile origins, point
//! loops and untiled loops. Siblings of a sequence get disjoint dimension
//! ranges, so a dimension's role, name and pragmas never depend on which
//! statement is executing.

use std::collections::BTreeSet;

use isl_rs::{Context, DimType, Schedule, ScheduleNode, ScheduleNodeType, UnionMap, UnionSet};

use super::PolyError;
use super::locality::{Stride, classify, direction};
use crate::Config;
use crate::frontend::{Access, Scop};

/// Role of one dimension of the flattened schedule.
#[derive(Clone, Debug, PartialEq)]
pub enum DimKind {
    /// Position among the children of a sequence: never a loop.
    Seq,
    /// Tile-origin loop of band member `member`, stepping by `TSS_T{member+1}`.
    /// `innermost`: the member's point loop is the band's innermost one
    /// (the vector loop, or a reduction such as syr2k's `k`).
    Tile { member: usize, innermost: bool },
    /// Loop inside a tile: member `member` of band `band` (an index into
    /// [`TiledSchedule::bands`]). Point loops of one band are permutable,
    /// which is what makes unroll-and-jam among them legal.
    Point { member: usize, band: usize },
    /// A loop of a band that is not tiled.
    Loop,
}

#[derive(Clone, Debug)]
pub struct Dim {
    pub kind: DimKind,
    /// C name of the loop iterator.
    pub name: String,
    /// Outermost parallel loop of its path: gets `omp parallel for`.
    pub parallel: bool,
    /// First tile loop of a band with no parallel member: with the next
    /// tile loop it is run by wavefronts (see [`Band::wavefront`]).
    pub wavefront: bool,
    /// Innermost point loop carrying no dependence: gets `GCC ivdep`.
    pub ivdep: bool,
}

/// A band of the schedule, as reported by `tss tile --explain`.
#[derive(Clone, Debug)]
pub struct Band {
    pub statements: Vec<String>,
    /// The band members as ISL prints them.
    pub members: Vec<String>,
    pub permutable: bool,
    pub coincident: Vec<bool>,
    pub tiled: bool,
    /// The intra-tile orders a config can choose.
    pub orders: Orders,
    /// The code was generated with [`Orders::sunk`]: its last member's loop
    /// runs below the loops of the band's subtree.
    pub sunk: bool,
    /// The code was generated with [`Orders::packed`].
    pub packed: bool,
    /// Member whose loop carries `omp parallel for`, if any.
    pub parallel_member: Option<usize>,
    /// No member is parallel (time-skewed stencils): the tiles of the first
    /// two members run by wavefronts, each wavefront's tiles in parallel
    /// (Pluto's pipelined parallelism). Legal in a permutable band: every
    /// dependence goes to a tile with no smaller index in any member, hence
    /// to a later wavefront or the same tile.
    pub wavefront: bool,
    /// Loop names of the members (the point-loop names when tiled).
    pub names: Vec<String>,
    /// Per statement of the band (index into `Scop::statements`): one affine
    /// row per member, `None` when the band is piecewise on it.
    pub rows: BandRows,
}

impl Band {
    /// Intra-tile loop order of the generated code, outermost first.
    pub fn point_order(&self) -> &[usize] {
        self.orders.for_config(self.sunk, self.packed)
    }
}

/// The intra-tile loop orders of a tiled band, as member indices, outermost
/// first. Any order is legal inside a tile of a permutable band; the config
/// ([`crate::Config::sink`], [`crate::Config::pack`]) picks one.
#[derive(Clone, Debug, PartialEq)]
pub struct Orders {
    /// Pluto's rule ([`Tiler::point_order`]).
    pub plain: Vec<usize>,
    /// When the band leaves loops inside it and has a parallel member worth
    /// running below them ([`Tiler::sink_member`]): that member last, the
    /// others in source order.
    pub sunk: Option<Vec<usize>>,
    /// When packing changes what Pluto's rule picks (syr2k's transposed
    /// reads become stride-1 along `j`): the order it picks then.
    pub packed: Option<Vec<usize>>,
}

impl Orders {
    /// One order whatever the config.
    pub fn only(plain: Vec<usize>) -> Self {
        Orders { plain, sunk: None, packed: None }
    }

    /// The order a config with these `sink` and `pack` generates: sinking
    /// takes precedence over packing.
    pub fn for_config(&self, sink: bool, pack: bool) -> &[usize] {
        match (&self.sunk, sink, &self.packed, pack) {
            (Some(order), true, _, _) => order,
            (_, _, Some(order), true) => order,
            _ => &self.plain,
        }
    }
}

/// Affine form of one band member on one statement: iterator coefficients, constant.
pub type Row = (Vec<i64>, i64);
/// Per statement of a band: its index, and its rows when the band is affine on it.
pub type BandRows = Vec<(usize, Option<Vec<Row>>)>;

/// One independently generated loop nest: a child of the outermost sequence
/// (or the whole SCoP when it is not a sequence).
pub struct Part {
    /// Statement instance -> schedule point; a relation, not a function (see module doc).
    pub map: UnionMap,
    pub dims: Vec<Dim>,
}

pub struct TiledSchedule {
    /// Executed one after the other. Splitting at the outermost sequence
    /// keeps each ISL AST problem small: no padding dimensions, no grouping
    /// across nests that never interleave.
    pub parts: Vec<Part>,
    pub bands: Vec<Band>,
    /// Number of tile-size parameters used (`TSS_T1..TSS_Tn`).
    pub tile_dims: usize,
    /// Statement and array pairs whose reads find the array's initial
    /// value ([`super::deps::fresh_reads`]); empty until the caller fills it.
    pub fresh_reads: BTreeSet<(String, String)>,
}

/// Whether the subtree at `node` holds a band (a loop).
fn has_band(node: &ScheduleNode) -> Result<bool, PolyError> {
    if node.get_type()? == ScheduleNodeType::Band {
        return Ok(true);
    }
    for c in 0..node.n_children()? {
        if has_band(&node.get_child(c)?)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Name of the tile-size parameter of band member `k` (0-based).
pub fn tile_param(k: usize) -> String {
    format!("TSS_T{}", k + 1)
}

/// Tiles every permutable band of `schedule`. The config's loop-order
/// choices apply: with [`Config::sink`], bands that leave loops inside them
/// run their best parallel member below those loops; with [`Config::pack`],
/// the intra-tile order counts the reads that packing makes stride-1 as such.
pub fn tile(ctx: &Context, scop: &Scop, schedule: &Schedule, config: &Config) -> Result<TiledSchedule, PolyError> {
    let iterators: BTreeSet<&String> = scop.statements.iter().flat_map(|s| &s.iterators).collect();
    let reserved = scop.identifiers.iter().filter(|i| !iterators.contains(i)).cloned().collect();
    let written = scop.written();
    let read_only = scop
        .statements
        .iter()
        .flat_map(|s| &s.accesses)
        .filter(|a| !written.contains(a.array.as_str()))
        .map(|a| a.array.clone())
        .collect();
    let mut t =
        Tiler { ctx, scop, bands: Vec::new(), reserved, tile_dims: 0, sink: config.sink, pack: config.pack, read_only };
    let mut children = Vec::new();
    sequential_parts(schedule.get_root()?, &mut children)?;
    let mut parts = Vec::new();
    for child in &children {
        let (map, dims) = t.node(child, &Path::default())?;
        parts.push(Part { map: map.coalesce()?, dims });
    }
    Ok(TiledSchedule { parts, bands: t.bands, tile_dims: t.tile_dims, fresh_reads: BTreeSet::new() })
}

/// The subtrees that run one after the other at the top of the schedule:
/// children of the outermost sequence, recursively through nested sequences
/// and sets (a set's children may run in any order, so in order is legal).
/// Each becomes its own AST problem: ISL's AST generation grows much faster
/// than linearly with the statements it must interleave, and 3mm's two
/// independent products would otherwise form one problem.
fn sequential_parts(node: ScheduleNode, out: &mut Vec<ScheduleNode>) -> Result<(), PolyError> {
    let mut inner = node.copy()?;
    while matches!(
        inner.get_type()?,
        ScheduleNodeType::Domain | ScheduleNodeType::Filter | ScheduleNodeType::Mark | ScheduleNodeType::Context
    ) {
        inner = inner.get_child(0)?;
    }
    match inner.get_type()? {
        ScheduleNodeType::Sequence | ScheduleNodeType::Set => {
            for c in 0..inner.n_children()? {
                sequential_parts(inner.get_child(c)?, out)?;
            }
        }
        _ => out.push(node),
    }
    Ok(())
}

/// What the ancestors of a schedule node already decided.
#[derive(Clone, Default)]
struct Path {
    in_tiled: bool,
    parallel_done: bool,
    /// Loop names of the enclosing dimensions (must stay distinct).
    names: Vec<String>,
}

struct Tiler<'a> {
    ctx: &'a Context,
    scop: &'a Scop,
    bands: Vec<Band>,
    reserved: BTreeSet<String>,
    tile_dims: usize,
    /// Sink a parallel member where a band allows it ([`crate::Config::sink`]).
    sink: bool,
    /// Generate the order that counts packed reads as stride-1 ([`crate::Config::pack`]).
    pack: bool,
    /// Arrays the SCoP never writes: packing can lay out their reads
    /// stride-1 along any member.
    read_only: BTreeSet<String>,
}

type Flat = (UnionMap, Vec<Dim>);

impl Tiler<'_> {
    fn node(&mut self, node: &ScheduleNode, path: &Path) -> Result<Flat, PolyError> {
        match node.get_type()? {
            ScheduleNodeType::Domain
            | ScheduleNodeType::Filter
            | ScheduleNodeType::Mark
            | ScheduleNodeType::Context => self.node(&node.get_child(0)?, path),
            ScheduleNodeType::Band => self.band(node, path),
            ScheduleNodeType::Sequence | ScheduleNodeType::Set => self.sequence(node, path),
            ScheduleNodeType::Leaf => Ok((self.constant(node.get_domain()?, &[])?, Vec::new())),
            other => Err(PolyError(format!("unexpected {other:?} node in the schedule tree"))),
        }
    }

    /// `{ S[..] -> [values] }` for every instance of `domain`.
    fn constant(&self, domain: UnionSet, values: &[i64]) -> Result<UnionMap, PolyError> {
        let v: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        let range = UnionSet::read_from_str(self.ctx, &format!("{{ [{}] }}", v.join(", ")))?;
        Ok(UnionMap::from_domain_and_range(domain, range)?)
    }

    fn sequence(&mut self, node: &ScheduleNode, path: &Path) -> Result<Flat, PolyError> {
        let n = node.n_children()?;
        let mut subs = Vec::new();
        for c in 0..n {
            subs.push(self.node(&node.get_child(c)?, path)?);
        }
        let widths: Vec<usize> = subs.iter().map(|(_, d)| d.len()).collect();
        let mut dims = vec![Dim {
            kind: DimKind::Seq,
            name: format!("tss_s{}", self.bands.len()),
            parallel: false,
            wavefront: false,
            ivdep: false,
        }];
        let mut map: Option<UnionMap> = None;
        for (c, (sub, sub_dims)) in subs.into_iter().enumerate() {
            let dom = sub.copy()?.domain()?;
            let before = vec![0; widths[..c].iter().sum()];
            let after = vec![0; widths[c + 1..].iter().sum()];
            let m = self
                .constant(dom.copy()?, &[c as i64])?
                .flat_range_product(self.constant(dom.copy()?, &before)?)?
                .flat_range_product(sub)?
                .flat_range_product(self.constant(dom, &after)?)?;
            map = Some(match map {
                None => m,
                Some(acc) => acc.union(m)?,
            });
            dims.extend(sub_dims);
        }
        Ok((map.ok_or_else(|| PolyError("empty sequence node".into()))?, dims))
    }

    fn band(&mut self, node: &ScheduleNode, path: &Path) -> Result<Flat, PolyError> {
        let d = node.band_n_member()? as usize;
        let domain = node.get_domain()?;
        let partial = node.band_get_partial_schedule_union_map()?.intersect_domain_union_set(domain.copy()?)?;
        let coincident = (0..d).map(|k| node.band_member_get_coincident(k as i32)).collect::<Result<Vec<_>, _>>()?;
        let permutable = node.band_get_permutable()?;
        let rows = self.band_rows(node, d)?;
        let tiled = permutable && d >= 2 && !path.in_tiled;
        let sinkable =
            if tiled && has_band(&node.get_child(0)?)? { self.sink_member(&rows, &coincident) } else { None };
        let plain_order = if tiled { self.point_order(&rows, &coincident, false) } else { (0..d).collect() };
        let packed_order = Some(self.point_order(&rows, &coincident, true)).filter(|o| tiled && *o != plain_order);
        // A sunk member goes last; the others keep the source order.
        let sunk_order: Option<Vec<usize>> =
            sinkable.map(|m| self.source_order(&rows, d, (0..d).filter(|&k| k != m)).chain([m]).collect());
        let sink = sinkable.filter(|_| self.sink);
        let packed = sink.is_none() && self.pack && packed_order.is_some();
        let point_order: Vec<usize> = match (&sunk_order, sink, &packed_order) {
            (Some(order), Some(_), _) => order.clone(),
            (_, _, Some(order)) if packed => order.clone(),
            _ => plain_order.clone(),
        };
        let parallel_member = if path.parallel_done { None } else { (0..d).find(|&k| coincident[k]) };
        let wavefront = tiled && parallel_member.is_none() && !path.parallel_done;

        let mut inner = path.clone();
        inner.in_tiled |= tiled;
        inner.parallel_done |= parallel_member.is_some() || wavefront;
        let names: Vec<String> = (0..d).map(|k| self.member_name(&rows, k, &mut inner.names)).collect();
        let mut dims = Vec::new();
        let sunk_map = match sink {
            Some(m) => Some(partial.copy()?.apply_range(self.member(d, m)?)?),
            None => None,
        };
        let piece = if tiled {
            self.tile_dims = self.tile_dims.max(d);
            let vector = point_order.last().copied().filter(|&k| coincident[k]);
            for (k, point) in names.iter().enumerate() {
                let name = self.fresh(&format!("{point}_t"), &mut inner.names);
                let parallel = parallel_member == Some(k);
                let wavefront = wavefront && k == 0;
                let kind = DimKind::Tile { member: k, innermost: point_order.last() == Some(&k) };
                dims.push(Dim { kind, name, parallel, wavefront, ivdep: false });
            }
            let band = self.bands.len();
            for &k in &point_order {
                let ivdep = vector == Some(k);
                dims.push(Dim {
                    kind: DimKind::Point { member: k, band },
                    name: names[k].clone(),
                    parallel: false,
                    wavefront: false,
                    ivdep,
                });
            }
            partial.apply_range(self.relaxed_tiling(d, &point_order[..d - usize::from(sink.is_some())])?)?
        } else {
            for (k, name) in names.iter().enumerate() {
                dims.push(Dim {
                    kind: DimKind::Loop,
                    name: name.clone(),
                    parallel: parallel_member == Some(k),
                    wavefront: false,
                    ivdep: false,
                });
            }
            partial
        };
        let members = (0..d)
            .map(|k| Ok(super::ffi::union_pw_aff_text(&node.band_get_partial_schedule()?.get_at(k as i32)?)?))
            .collect::<Result<Vec<_>, PolyError>>()?;
        let statements = rows.iter().map(|(s, _)| self.scop.statements[*s].name.clone()).collect();
        self.bands.push(Band {
            statements,
            members,
            permutable,
            coincident,
            tiled,
            orders: Orders { plain: plain_order, sunk: sunk_order, packed: packed_order },
            sunk: sink.is_some(),
            packed,
            parallel_member,
            wavefront,
            names,
            rows,
        });
        let (child, child_dims) = self.node(&node.get_child(0)?, &inner)?;
        let sunk_dim = if sink.is_some() { dims.pop() } else { None };
        dims.extend(child_dims);
        let map = piece.flat_range_product(child)?;
        match (sunk_map, sunk_dim) {
            (Some(last), Some(dim)) => {
                dims.push(dim);
                Ok((map.flat_range_product(last)?, dims))
            }
            _ => Ok((map, dims)),
        }
    }

    /// The band member to run innermost, below the loops of the band's
    /// subtree, if any: the coincident member along which references are
    /// most often stride-1 or invariant, when that beats none of them.
    ///
    /// A band that is not the whole nest leaves its subtree's loops inside
    /// its point loops, and those are often reductions (conv2d's `s, c`
    /// under `y, x, k, r`, a product's sum over `i` under `k, j`): scalar
    /// chains that do not vectorise, over strided reads, where the source's
    /// own innermost loop was a stride-1 parallel one. A coincident member
    /// has no dependence distance left at the band (ISL's coincidence, which
    /// `ivdep` already relies on), so moving its point loop inward past any
    /// number of loops keeps every dependence in order.
    fn sink_member(&self, rows: &BandRows, coincident: &[bool]) -> Option<usize> {
        (0..coincident.len())
            .rev()
            .filter(|&k| coincident[k])
            .map(|k| (self.stride_score(rows, k, false), k))
            .max_by_key(|&(score, _)| score)
            .filter(|&(score, _)| score > 0)
            .map(|(_, k)| k)
    }

    /// `{ [s] -> [s_m] }` on a `d`-member band.
    fn member(&self, d: usize, m: usize) -> Result<UnionMap, PolyError> {
        let s: Vec<String> = (0..d).map(|k| format!("s{k}")).collect();
        Ok(UnionMap::read_from_str(self.ctx, &format!("{{ [{}] -> [{}] }}", s.join(", "), s[m]))?)
    }

    /// `{ [s] -> [o, s permuted] : o_k <= s_k <= o_k + T_k - 1 }`.
    fn relaxed_tiling(&self, d: usize, order: &[usize]) -> Result<UnionMap, PolyError> {
        let s: Vec<String> = (0..d).map(|k| format!("s{k}")).collect();
        let o: Vec<String> = (0..d).map(|k| format!("o{k}")).collect();
        let t: Vec<String> = (0..d).map(tile_param).collect();
        let perm: Vec<String> = order.iter().map(|&k| s[k].clone()).collect();
        let cons: Vec<String> =
            (0..d).map(|k| format!("{t} >= 1 and {o} <= {s} <= {o} + {t} - 1", t = t[k], o = o[k], s = s[k])).collect();
        let text = format!(
            "[{}] -> {{ [{}] -> [{}, {}] : {} }}",
            t.join(", "),
            s.join(", "),
            o.join(", "),
            perm.join(", "),
            cons.join(" and ")
        );
        Ok(UnionMap::read_from_str(self.ctx, &text)?)
    }

    /// For each statement of the band: its index and, when the band is affine
    /// on it, one row of iterator coefficients (plus constant) per member.
    fn band_rows(&self, node: &ScheduleNode, d: usize) -> Result<BandRows, PolyError> {
        let mupa = node.band_get_partial_schedule()?;
        // rows[statement][member] = (coefficients, constant), None when piecewise.
        let mut rows: Vec<Option<Vec<Option<Row>>>> = vec![None; self.scop.statements.len()];
        for k in 0..d {
            let list = mupa.get_at(k as i32)?.get_pw_aff_list()?;
            for p in 0..list.size()? {
                let pa = list.get_at(p)?;
                let name = pa.get_domain_space()?.get_tuple_name(DimType::Set)?.to_string();
                let Some(idx) = self.scop.statements.iter().position(|s| s.name == name) else { continue };
                let n = self.scop.statements[idx].iterators.len();
                let row = if pa.n_piece()? == 1 {
                    let aff = pa.as_aff()?;
                    let coeffs = (0..n)
                        .map(|j| aff.get_coefficient_val(DimType::In, j as i32).and_then(|v| v.get_num_si()))
                        .collect::<Result<Vec<_>, _>>()?;
                    Some((coeffs, aff.get_constant_val()?.get_num_si()?))
                } else {
                    None
                };
                rows[idx].get_or_insert_with(|| vec![None; d])[k] = row;
            }
        }
        Ok(rows
            .into_iter()
            .enumerate()
            .filter_map(|(idx, r)| r.map(|r| (idx, r.into_iter().collect::<Option<Vec<_>>>())))
            .collect())
    }

    /// Pluto's intra-tile rule: move innermost the member along which most
    /// references are stride-1 (spatial reuse) or invariant (temporal reuse)
    /// and fewest jump; the others keep their order. Any order is legal
    /// inside a tile of a permutable band. With `pack`, reads that packing
    /// lays out stride-1 count as such.
    fn point_order(&self, rows: &BandRows, coincident: &[bool], pack: bool) -> Vec<usize> {
        let d = coincident.len();
        let score = |k: usize| i64::from(coincident[k]) + self.stride_score(rows, k, pack);
        let best = (0..d).rev().max_by_key(|&k| score(k)).unwrap_or(d - 1);
        self.source_order(rows, d, (0..d).filter(|&k| k != best)).chain([best]).collect()
    }

    /// `members` of a `d`-member band in source nesting order where a member
    /// is a plain source iterator (ISL may have reordered the band), else in
    /// band order.
    fn source_order(
        &self,
        rows: &BandRows,
        d: usize,
        members: impl Iterator<Item = usize>,
    ) -> std::vec::IntoIter<usize> {
        let depth = |k: usize| -> usize {
            rows.iter()
                .filter_map(|(_, r)| r.as_ref())
                .find_map(|r| single_iterator(&r[k]).map(|(j, _)| j))
                .unwrap_or(d + k)
        };
        let mut out: Vec<usize> = members.collect();
        out.sort_by_key(|&k| (depth(k), k));
        out.into_iter()
    }

    /// Over every reference of the band's statements, +2 when the reference
    /// is stride-1 along member `k`, +1 when invariant, -2 otherwise.
    fn stride_score(&self, rows: &BandRows, k: usize, pack: bool) -> i64 {
        let mut sc = 0;
        for (s, r) in rows {
            let Some(r) = r else { continue };
            let stmt = &self.scop.statements[*s];
            let m: Vec<Vec<i64>> = r.iter().map(|(c, _)| c.clone()).collect();
            let dir = direction(&m, k);
            for a in &stmt.accesses {
                sc += match classify(stmt, a, dir.as_deref()) {
                    Stride::Unit => 2,
                    Stride::Invariant => 1,
                    Stride::Other if pack && self.packable(a, m.len()) => 2,
                    Stride::Other => -2,
                };
            }
        }
        sc
    }

    /// Whether packing gives `a` stride 1 along any member of a `d`-member
    /// band: a read of a read-only array whose subscripts
    /// [`Access::unit_terms`] accepts, and that reads fewer
    /// iterators than the band has members (so each copied element is
    /// reused; see `codegen::pack`).
    fn packable(&self, a: &Access, d: usize) -> bool {
        let Some(terms) = a.unit_terms() else { return false };
        let iterators: BTreeSet<&String> = terms.iter().filter_map(|(it, _)| it.as_ref()).collect();
        !a.write && self.read_only.contains(&a.array) && iterators.len() < d
    }

    /// The source iterator a member equals on every statement, else `c`.
    fn member_name(&self, rows: &BandRows, k: usize, taken: &mut Vec<String>) -> String {
        let mut natural: Option<&str> = None;
        let mut ok = !rows.is_empty();
        for (s, r) in rows {
            let stmt = &self.scop.statements[*s];
            let it = r.as_ref().and_then(|r| match single_iterator(&r[k]) {
                Some((j, 1)) if r[k].1 == 0 => Some(stmt.iterators[j].as_str()),
                _ => None,
            });
            match (it, natural) {
                (Some(n), None) => natural = Some(n),
                (Some(n), Some(m)) if n == m => {}
                _ => ok = false,
            }
        }
        let base = if ok { natural.unwrap_or("c").to_string() } else { "c".to_string() };
        self.fresh(&base, taken)
    }

    /// `base`, or `base2`, `base3`, ... avoiding enclosing loops and the SCoP's own names.
    fn fresh(&self, base: &str, taken: &mut Vec<String>) -> String {
        let free = |n: &String| !taken.contains(n) && !self.reserved.contains(n) && !is_c_keyword(n);
        let name = std::iter::once(base.to_string())
            .chain((2..).map(|k| format!("{base}{k}")))
            .find(free)
            .expect("an unbounded sequence of names has a free one");
        taken.push(name.clone());
        name
    }
}

/// The iterator a band member depends on, with its coefficient, when it
/// depends on exactly one.
pub fn single_iterator((coeffs, _): &Row) -> Option<(usize, i64)> {
    let mut nz = coeffs.iter().enumerate().filter(|(_, c)| **c != 0);
    match (nz.next(), nz.next()) {
        (Some((j, &c)), None) => Some((j, c)),
        _ => None,
    }
}

fn is_c_keyword(n: &str) -> bool {
    const KW: [&str; 16] = [
        "if", "else", "for", "while", "do", "int", "long", "double", "float", "char", "return", "static", "const",
        "void", "auto", "register",
    ];
    KW.contains(&n) || n.starts_with("tss_")
}
