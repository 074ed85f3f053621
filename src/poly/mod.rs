//! Polyhedral stage: model -> dependences -> schedule -> tiled schedule.
//!
//! One module per pass, in pipeline order, in the spirit of Polly and PPCG:
//! [`model`] turns a [`crate::frontend::Scop`] into ISL sets and maps,
//! [`deps`] computes RAW/WAR/WAW dependences, [`schedule`] runs ISL's
//! Pluto-style scheduler, and [`tile`] turns its permutable bands into a
//! parametrically tiled schedule ready for code generation.

pub mod baseline;
pub mod deps;
pub mod ffi;
pub mod locality;
pub mod model;
pub mod schedule;
pub mod tile;

use isl_rs::LibISLError;

/// A failure inside ISL or an input ISL cannot represent.
#[derive(Debug, Clone, PartialEq)]
pub struct PolyError(pub String);

impl std::fmt::Display for PolyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<LibISLError> for PolyError {
    fn from(e: LibISLError) -> Self {
        PolyError(format!("ISL: {e}"))
    }
}

impl From<String> for PolyError {
    fn from(e: String) -> Self {
        PolyError(e)
    }
}

/// Per dimension its least and greatest value, `None` where unbounded.
pub type BoundingBox = Vec<Option<(i64, i64)>>;

/// The bounding box of `set`'s first `dims` dimensions: per dimension its
/// least and greatest value, `None` where ISL finds no integer bound; `None`
/// overall for an empty set. The one box query behind instance work,
/// feature-loop extents, band-member extents and array sizes.
pub fn box_extents(set: &isl_rs::Set, dims: usize) -> Result<Option<BoundingBox>, LibISLError> {
    if set.is_empty()? {
        return Ok(None);
    }
    let mut out = Vec::with_capacity(dims);
    for k in 0..dims as i32 {
        let (lo, hi) = (set.copy()?.dim_min_val(k)?, set.copy()?.dim_max_val(k)?);
        out.push(if lo.is_int()? && hi.is_int()? { Some((lo.get_num_si()?, hi.get_num_si()?)) } else { None });
    }
    Ok(Some(out))
}

pub(crate) fn isl_err(what: &str, text: &str, e: LibISLError) -> PolyError {
    PolyError(format!("ISL rejected the {what} `{text}`: {e}"))
}
