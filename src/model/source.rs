//! Where a model comes from: a directory (`--model`, `$TSS_MODEL_DIR`) or
//! the shipped models built into the binary by `build.rs`, so that an
//! installed `tss` needs no source tree.

use std::fmt;

use std::path::PathBuf;

use crate::harness::compile::Compiler;
use crate::machine::{Descriptor, human};

use super::saved::{SavedModel, weight_files};

/// Where `tss adapt` keeps this platform's model of a mode:
/// `<cache>/models/<platform>/<mode>` (see [`Compiler::cache_dir`] and
/// [`Descriptor::platform`]): a model adapted under gcc is not used under
/// clang.
pub fn adapted_dir(parallel: bool) -> Option<PathBuf> {
    let mode = if parallel { "parallel" } else { "serial" };
    Some(Compiler::cache_dir()?.join("models").join(here().platform()).join(mode))
}

/// This machine with the compiler and flags of the environment (`$CC`,
/// `$CFLAGS`): what a model fitted here is kept under. A compiler that
/// cannot be run leaves the compiler out, so the error comes from whatever
/// needs it.
pub fn here() -> Descriptor {
    match Compiler::from_env() {
        Ok(c) => Descriptor::detect(&c.version, &c.flags()),
        Err(_) => Descriptor::detect("", ""),
    }
}

/// A shipped model's files, as built in.
pub struct Files {
    pub json: &'static [u8],
    pub weights: &'static [&'static [u8]],
}

mod shipped {
    use super::Files;
    include!(concat!(env!("OUT_DIR"), "/shipped.rs"));
}

/// The built-in model of a mode, if this binary was built with one.
pub fn shipped(parallel: bool) -> Option<&'static Files> {
    if parallel { shipped::PARALLEL.as_ref() } else { shipped::SERIAL.as_ref() }
}

/// A model to load.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelSource {
    /// A model directory (`model.json` and `weights*.bin`).
    Dir(PathBuf),
    /// The model of the mode built into this binary.
    Shipped { parallel: bool },
    /// A model `tss adapt` fitted to this machine, in the user's cache.
    Adapted(PathBuf),
}

impl ModelSource {
    /// `$TSS_MODEL_DIR/<mode>` when set, else the model `tss adapt` fitted
    /// to this machine when there is one, else the built-in model.
    pub fn default_for(parallel: bool) -> ModelSource {
        let mode = if parallel { "parallel" } else { "serial" };
        if let Some(d) = std::env::var_os("TSS_MODEL_DIR") {
            return ModelSource::Dir(PathBuf::from(d).join(mode));
        }
        match adapted_dir(parallel) {
            Some(d) if d.join("model.json").exists() => ModelSource::Adapted(d),
            _ => ModelSource::Shipped { parallel },
        }
    }

    /// Loads the model, with a one-line error when it is missing or corrupt.
    pub fn load(&self) -> Result<SavedModel, String> {
        match self {
            ModelSource::Dir(d) | ModelSource::Adapted(d) => SavedModel::load(d),
            ModelSource::Shipped { parallel } => match shipped(*parallel) {
                Some(f) => SavedModel::from_bytes(&self.to_string(), f.json, f.weights),
                None => Err(format!("this tss was built without a {self}; pass --model DIR or set TSS_MODEL_DIR")),
            },
        }
    }

    /// The model's bytes (description and every member), for cache keys:
    /// a retrained model must not reuse choices made by the old one.
    pub fn fingerprint(&self) -> Option<Vec<u8>> {
        let mut bytes = Vec::new();
        match self {
            ModelSource::Dir(d) | ModelSource::Adapted(d) => {
                bytes.extend(std::fs::read(d.join("model.json")).ok()?);
                for p in weight_files(d) {
                    bytes.extend(std::fs::read(p).ok()?);
                }
            }
            ModelSource::Shipped { parallel } => {
                let f = shipped(*parallel)?;
                bytes.extend(f.json);
                f.weights.iter().for_each(|w| bytes.extend(*w));
            }
        }
        Some(bytes)
    }
}

impl fmt::Display for ModelSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelSource::Dir(d) => write!(f, "{}", d.display()),
            ModelSource::Adapted(d) => write!(f, "model adapted to this machine ({})", d.display()),
            ModelSource::Shipped { parallel: false } => f.write_str("built-in serial model"),
            ModelSource::Shipped { parallel: true } => f.write_str("built-in parallel model"),
        }
    }
}

/// One line on where a model's data came from, for `tss --version`.
pub fn provenance(m: &SavedModel) -> String {
    let d = &m.meta.data;
    let date = if m.meta.trained.is_empty() { "undated".to_string() } else { m.meta.trained.clone() };
    format!(
        "trained {date} on {} ({} rows, {} instances of {} kernels from {}), {} {}, {} feature set, {} member(s)",
        if d.cpu.is_empty() { "an unknown CPU" } else { &d.cpu },
        d.rows,
        d.instances,
        d.kernels.len(),
        d.files.join(", "),
        d.cc,
        d.cflags,
        m.meta.config.feature_set,
        m.members()
    )
}

/// The default model of each mode and its provenance, one line each.
pub fn describe_defaults() -> String {
    [false, true]
        .iter()
        .map(|&parallel| {
            let src = ModelSource::default_for(parallel);
            let mode = if parallel { "parallel" } else { "serial" };
            match src.load() {
                Ok(m) => format!("{mode} model: {src}, {}", provenance(&m)),
                Err(e) => format!("{mode} model: {e}"),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether model `m` was trained on a machine like `here`, in words.
pub fn fit_to(m: &SavedModel, here: &Descriptor) -> String {
    let d = &m.meta.data;
    match d.differences_from(here) {
        Some(diffs) => {
            if diffs.is_empty() {
                "trained on this kind of machine".into()
            } else {
                format!("trained on {}: T1 may pick worse tiles here", d.other_machines(&diffs))
            }
        }
        None if d.cpu == here.cpu && d.l1d == here.l1d && d.l2 == here.l2 => {
            format!("trained on '{}' with the same caches (no full machine record)", d.cpu)
        }
        None => format!(
            "trained on '{}' (L1d {}, L2 {}), not this machine: T1 may pick worse tiles here",
            d.cpu,
            human(d.l1d),
            human(d.l2)
        ),
    }
}

/// `tss machine`: this machine as tss records it, its data directory name,
/// and how the default models fit it.
pub fn describe_machine(here: &Descriptor) -> String {
    let mut out = format!(
        "this machine: {}\ndata directory: {}\n",
        here.summary(),
        crate::dataset::data_dir_under(here, std::path::Path::new("."))
    );
    for parallel in [false, true] {
        let src = ModelSource::default_for(parallel);
        let mode = if parallel { "parallel" } else { "serial" };
        let line = match src.load() {
            Ok(m) => format!("{mode} model ({src}): {}", fit_to(&m, here)),
            Err(e) => format!("{mode} model: {e}"),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_models_load_and_predict() {
        for parallel in [false, true] {
            let m = ModelSource::Shipped { parallel }.load().unwrap();
            let d = m.meta.feature_names.len();
            let p = m.predict(&[vec![0.5; d]]);
            assert!(p[0].is_finite() && p[0] > 0.0, "{p:?}");
            assert!(provenance(&m).contains(&m.meta.data.cpu));
        }
    }

    #[test]
    fn built_in_models_are_the_files_in_trained() {
        for (mode, name) in super::super::built_in::BUILT_IN {
            let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("trained").join(name);
            let a = ModelSource::Dir(dir).fingerprint().unwrap();
            assert_eq!(Some(a), ModelSource::Shipped { parallel: mode == "parallel" }.fingerprint(), "{mode}");
        }
    }
}
