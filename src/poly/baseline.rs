//! The untiled baseline as a schedule: the original loop order, with the
//! outermost loop of each nest marked parallel when it carries no
//! dependence. Evaluation compares tiles against this code (the paper's
//! baseline is the untiled kernel; in parallel mode the untiled kernel with
//! its outer loop under OpenMP), so it goes through the same code generator.

use isl_rs::{Context, UnionMap, UnionSet};

use super::PolyError;
use super::deps::Dependences;
use super::model::Model;
use super::tile::{Dim, DimKind, Part, TiledSchedule};
use crate::frontend::{SchedDim, Scop};

/// One [`Part`] per top-level node of the SCoP, in the original order.
pub fn untiled(ctx: &Context, scop: &Scop, model: &Model, deps: &Dependences) -> Result<TiledSchedule, PolyError> {
    let width = scop.statements.iter().map(|s| s.schedule.len()).max().unwrap_or(0);
    // Dependences in schedule time: { [t] -> [t'] }, every statement padded to `width`.
    let timed = deps.all()?.apply_domain(model.schedule.copy()?)?.apply_range(model.schedule.copy()?)?;
    let nests: Vec<i64> = {
        let mut v: Vec<i64> = scop
            .statements
            .iter()
            .filter_map(|s| match s.schedule.first() {
                Some(SchedDim::Pos(p)) => Some(*p),
                _ => None,
            })
            .collect();
        v.dedup();
        v
    };
    let mut parts = Vec::new();
    for n in nests {
        let names: Vec<String> = scop
            .statements
            .iter()
            .filter(|s| s.schedule.first() == Some(&SchedDim::Pos(n)))
            .map(|s| s.name.clone())
            .collect();
        let domain = model.domain.copy()?.intersect(UnionSet::read_from_str(
            ctx,
            &format!(
                "{}{{ {} }}",
                scop.param_prefix(),
                scop.statements
                    .iter()
                    .filter(|s| names.contains(&s.name))
                    .map(|s| s.tuple())
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        )?)?;
        let map = model.schedule.copy()?.intersect_domain_union_set(domain)?;
        let outer_is_loop = scop
            .statements
            .iter()
            .any(|s| names.contains(&s.name) && matches!(s.schedule.get(1), Some(SchedDim::Iter(..))));
        let parallel = outer_is_loop && !carried_at(ctx, &timed, n, width)?;
        let dims = (0..width)
            .map(|p| {
                let kind = if p % 2 == 0 { DimKind::Seq } else { DimKind::Loop };
                Dim { kind, name: format!("tss_c{p}"), parallel: p == 1 && parallel, wavefront: false, ivdep: false }
            })
            .collect();
        parts.push(Part { map, dims });
    }
    Ok(TiledSchedule { parts, bands: Vec::new(), tile_dims: 0, fresh_reads: Default::default() })
}

/// Does a dependence inside nest `n` cross iterations of its outer loop?
fn carried_at(ctx: &Context, timed: &UnionMap, n: i64, width: usize) -> Result<bool, PolyError> {
    if width < 2 {
        return Ok(false);
    }
    let t: Vec<String> = (0..width).map(|k| format!("t{k}")).collect();
    let u: Vec<String> = (0..width).map(|k| format!("u{k}")).collect();
    let cross = format!("{{ [{}] -> [{}] : t0 = {n} and u0 = {n} and t1 != u1 }}", t.join(", "), u.join(", "));
    let cross = UnionMap::read_from_str(ctx, &cross)?;
    Ok(!timed.copy()?.intersect(cross)?.is_empty()?)
}
