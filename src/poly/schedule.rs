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

use isl_rs::{Context, Options, Schedule, ScheduleConstraints};

use super::PolyError;
use super::deps::Dependences;
use super::model::Model;

///
/// `unfused` serialises the strongly connected components instead (the
/// fallback of [`crate::Plan::Unfused`]).
pub fn compute(ctx: &Context, model: &Model, deps: &Dependences, unfused: bool) -> Result<Schedule, PolyError> {
    Options::set_schedule_maximize_band_depth(ctx, 1)?;
    Options::set_schedule_outer_coincidence(ctx, 0)?;
    Options::set_schedule_serialize_sccs(ctx, i32::from(unfused))?;
    Options::set_schedule_treat_coalescing(ctx, 1)?;
    Options::set_schedule_max_coefficient(ctx, 4)?;
    let all = deps.all()?;
    let sc = ScheduleConstraints::on_domain(model.domain.copy()?)?
        .set_validity(all.copy()?)?
        .set_proximity(all.copy()?)?
        .set_coincidence(all)?;
    Ok(sc.compute_schedule()?)
}
