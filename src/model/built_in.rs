// Compiled as `model::built_in` and included by `build.rs`, so the two
// cannot disagree (an included file cannot carry an inner doc comment).

/// Each mode and its directory under `trained/`. Serial code gets the corpus
/// model of three CPUs (it ranks the whole per-dimension space and the
/// untiled code; on a fourth CPU its first picks ran 1.9x faster than the
/// paper's cubic model's, README session 51); OpenMP code keeps the paper's
/// cubic model, as the parallel corpus model has rows of one CPU only.
pub const BUILT_IN: [(&str, &str); 2] = [("serial", "corpus-serial-pooled"), ("parallel", "parallel")];
