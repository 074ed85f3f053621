// Compiled as `model::built_in` and included by `build.rs`, so the two
// cannot disagree (an included file cannot carry an inner doc comment).

/// Each mode and its directory under `trained/`: the corpus models, which
/// rank the whole per-dimension space and the untiled code. Serial code gets
/// the model of three CPUs (on a fourth its first picks ran 1.9x faster than
/// the paper's cubic model's, README session 51), OpenMP code the model of
/// the Zen 5's parallel rows (on the Zen 4, which it never saw, its first
/// picks ran 2.5x faster than the cubic `parallel` model's, session 52).
pub const BUILT_IN: [(&str, &str); 2] = [("serial", "corpus-serial-pooled"), ("parallel", "corpus-parallel")];
