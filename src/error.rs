//! The one error type users see: always one line naming the file.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Unsupported or malformed input at a source position.
    #[error("{}:{line}:{col}: {msg}", file.display())]
    Source { file: PathBuf, line: usize, col: usize, msg: String },
    /// The SCoP parsed, but ISL could not analyse or tile it.
    #[error("{}:{line}: {msg}", file.display())]
    Poly { file: PathBuf, line: usize, msg: String },
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    /// Bad command-line values.
    #[error("{0}")]
    Usage(String),
}
