//! ISL objects of a [`Scop`]: domains, accesses and the original schedule.

use isl_rs::{Context, UnionMap, UnionSet};

use super::{PolyError, isl_err};
use crate::frontend::{SchedDim, Scop, Statement};

/// The polyhedral model of one SCoP, as ISL objects.
pub struct Model {
    pub domain: UnionSet,
    pub reads: UnionMap,
    pub writes: UnionMap,
    /// The original execution order (2d+1 form).
    pub schedule: UnionMap,
}

impl Model {
    pub fn build(ctx: &Context, scop: &Scop) -> Result<Self, PolyError> {
        let params = scop.param_prefix();
        let mut domain = String::new();
        let (mut reads, mut writes, mut sched) = (Vec::new(), Vec::new(), Vec::new());
        let width = scop.statements.iter().map(|s| s.schedule.len()).max().unwrap_or(0);
        for s in &scop.statements {
            domain.push_str(&s.domain_piece());
            domain.push(';');
            for a in &s.accesses {
                let m = s.access_isl(a);
                if a.write { writes.push(m) } else { reads.push(m) }
            }
            sched.push(format!("{} -> [{}]", s.tuple(), schedule_dims(s, width).join(", ")));
        }
        let read_str =
            |what: &str, text: String| UnionMap::read_from_str(ctx, &text).map_err(|e| isl_err(what, &text, e));
        let dom_text = format!("{params}{{ {domain} }}");
        let domain = UnionSet::read_from_str(ctx, &dom_text).map_err(|e| isl_err("iteration domain", &dom_text, e))?;
        let dom = |m: UnionMap| m.intersect_domain_union_set(domain.copy().unwrap());
        let reads = dom(read_str("read accesses", format!("{params}{{ {} }}", reads.join("; ")))?);
        let writes = dom(read_str("write accesses", format!("{params}{{ {} }}", writes.join("; ")))?);
        let schedule = dom(read_str("original schedule", format!("{params}{{ {} }}", sched.join("; ")))?);
        Ok(Self { domain, reads: reads?, writes: writes?, schedule: schedule? })
    }
}

/// `[0, i, 1, j, 0]`, padded with zeros to `width`.
fn schedule_dims(s: &Statement, width: usize) -> Vec<String> {
    let mut dims: Vec<String> = s
        .schedule
        .iter()
        .map(|d| match d {
            SchedDim::Pos(p) => p.to_string(),
            SchedDim::Iter(i, 1) => s.iterators[*i].clone(),
            SchedDim::Iter(i, _) => format!("-{}", s.iterators[*i]),
        })
        .collect();
    dims.resize(width, "0".into());
    dims
}
