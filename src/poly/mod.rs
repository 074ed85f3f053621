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

pub(crate) fn isl_err(what: &str, text: &str, e: LibISLError) -> PolyError {
    PolyError(format!("ISL rejected the {what} `{text}`: {e}"))
}
