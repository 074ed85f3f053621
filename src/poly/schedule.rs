//! A Pluto-like schedule from ISL's scheduler.
//!
//! ISL's default algorithm is Pluto's: it looks, band by band, for affine
//! hyperplanes that respect every dependence with non-negative distance
//! (making the band fully permutable, hence tileable), minimising dependence
//! distances (proximity) and preferring zero distances (coincidence, i.e.
//! parallel loops). It skews where outer permutability needs it (jacobi-2d,
//! seidel-2d) and fuses statements where that is legal.
//!
//! Options set, and why:
//! - `schedule_maximize_band_depth = 1`: keep members in one band as long as
//!   the band stays permutable, so the tiled band is as deep as possible
//!   (Pluto's maximal outermost permutable bands);
//! - `schedule_outer_coincidence = 0`: do not give up band depth to force an
//!   outer parallel member; a deeper tileable band matters more for locality;
//! - `schedule_serialize_sccs = 0`: allow fusion of strongly connected
//!   components (gemm's scaling statement with its accumulation);
//! - `schedule_treat_coalescing = 1`: avoid schedules that turn stride-1
//!   accesses into strided ones;
//! - `schedule_max_coefficient = 4`: small skewing factors are all tiling
//!   needs and keep the search (and the generated bounds) small.
//!
//! Validity, proximity and coincidence constraints are all the dependences.
//!
//! Before that, statements shallower than the deepest one that no other
//! statement feeds (gemm's and syrk's `C[i][j] *= beta`, 2mm's `tmp[i][j] =
//! 0`) are cut off and run first, as Pluto's default fusion does: fused into
//! the deep band they sit at its first reduction step, which splits every
//! tile of the band in two versions, and the first one (`k_t == 0`) cannot
//! hold a register tile. syrk's vector tile ran 0.107 -> 0.096 s without it.

use isl_rs::{Context, Options, Schedule, ScheduleConstraints, UnionMap, UnionSet};

use super::PolyError;
use super::deps::Dependences;
use super::model::Model;
use crate::frontend::Scop;

/// A schedule of the SCoP: the cut-off statements ([`front`]) first, each
/// part by ISL's scheduler.
///
/// `unfused` serialises the strongly connected components instead (the
/// fallback of [`crate::Plan::Unfused`]).
pub fn compute(
    ctx: &Context,
    scop: &Scop,
    model: &Model,
    deps: &Dependences,
    unfused: bool,
) -> Result<Schedule, PolyError> {
    Options::set_schedule_maximize_band_depth(ctx, 1)?;
    Options::set_schedule_outer_coincidence(ctx, 0)?;
    Options::set_schedule_serialize_sccs(ctx, i32::from(unfused))?;
    Options::set_schedule_treat_coalescing(ctx, 1)?;
    Options::set_schedule_max_coefficient(ctx, 4)?;
    let all = deps.all()?;
    let domains = scop
        .statements
        .iter()
        .map(|s| Ok(UnionSet::read_from_str(ctx, &scop.domain_isl(s))?))
        .collect::<Result<Vec<_>, PolyError>>()?;
    let depths: Vec<usize> = scop.statements.iter().map(|s| s.iterators.len()).collect();
    let first = front(ctx, &depths, &domains, &all)?;
    if first.is_empty() || unfused {
        return solve(model.domain.copy()?, &all);
    }
    let head = union(ctx, &domains, &first)?;
    let tail = model.domain.copy()?.subtract(head.copy()?)?;
    Ok(solve(head, &all)?.sequence(solve(tail, &all)?)?)
}

/// ISL's schedule of the instances `domain` under the dependences among them.
fn solve(domain: UnionSet, deps: &UnionMap) -> Result<Schedule, PolyError> {
    let deps = deps.copy()?.intersect_domain(domain.copy()?)?.intersect_range(domain.copy()?)?;
    let sc = ScheduleConstraints::on_domain(domain)?
        .set_validity(deps.copy()?)?
        .set_proximity(deps.copy()?)?
        .set_coincidence(deps)?;
    Ok(sc.compute_schedule()?)
}

/// The statements that may run before all the others: shallower than the
/// deepest statement, and fed by no statement outside the set (so running
/// them first breaks no dependence). Empty when that leaves nothing else.
fn front(ctx: &Context, depths: &[usize], domains: &[UnionSet], deps: &UnionMap) -> Result<Vec<usize>, PolyError> {
    let deepest = depths.iter().copied().max().unwrap_or(0);
    let mut set: Vec<usize> = (0..depths.len()).filter(|&s| depths[s] < deepest).collect();
    loop {
        let others: Vec<usize> = (0..depths.len()).filter(|s| !set.contains(s)).collect();
        let outside = union(ctx, domains, &others)?;
        let mut kept = Vec::new();
        for &s in &set {
            let fed = deps.copy()?.intersect_domain(outside.copy()?)?.intersect_range(domains[s].copy()?)?;
            if fed.is_empty()? {
                kept.push(s);
            }
        }
        if kept.len() == set.len() {
            return Ok(if kept.len() == depths.len() { Vec::new() } else { kept });
        }
        set = kept;
    }
}

/// The union of the domains of `statements`.
fn union(ctx: &Context, domains: &[UnionSet], statements: &[usize]) -> Result<UnionSet, PolyError> {
    let mut u = UnionSet::empty_ctx(ctx)?;
    for &s in statements {
        u = u.union(domains[s].copy()?)?;
    }
    Ok(u)
}
