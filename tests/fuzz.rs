//! Differential testing of `tss tile` (see `tss::fuzz`): minimised cases that
//! were once wrong, then a seeded, bounded run over random programs and
//! mutants of `polybench/`. Every accepted program must print exactly what
//! the original prints: serially for tiles 1, 2, 3, 7, 32 and odd shapes,
//! with `--parallel` under 2 and 3 threads, and with every loop marked
//! `omp parallel for` or `GCC ivdep` run backwards.

mod common;

use std::time::Duration;

use tss::fuzz::{self, Config, Outcome};

fn config(tag: &str) -> Config {
    let work = std::env::temp_dir().join(format!("tss-fuzz-test-{tag}-{}", std::process::id()));
    Config {
        tss: env!("CARGO_BIN_EXE_tss").into(),
        cc: std::env::var("CC").unwrap_or_else(|_| "cc".into()),
        work,
        tile_timeout: Duration::from_secs(20),
        run_timeout: Duration::from_secs(20),
        kernels: common::root().join("polybench"),
    }
}

/// Minimised programs, each of which once made tss emit wrong code or fail.
const REGRESSIONS: &[(&str, &str)] = &[
    (
        // `/` is C's truncation: j starts at -1 for i = 0, not at floor(-3/2) = -2.
        "truncating-division",
        "  for (i = 0; i < N; i++)\n    for (j = (i - 3) / 2; j < 2; j++)\n      x[i] += 1.0;\n",
    ),
    (
        // `%` of a negative value is negative in C.
        "remainder",
        "  for (i = -N; i < N; i++)\n    for (j = (i - 1) % 3; j < 3; j++)\n      A[i][j] = A[i][j] + 0.5 * x[j + 3];\n",
    ),
    (
        // A wavefront guard pasted ISL's `?:` bound without parentheses.
        "wavefront-guard",
        "  for (i = 1; i <= N; i++)\n    for (j = 1; j < N; j++)\n      for (k = 0; k < N; k++) {\n        \
         A[N - j - 1][k] = A[k][N - j - 1];\n        A[i][k] = A[i][k + 1];\n      }\n",
    ),
    (
        "parallel-with-sequenced-inner-loops",
        "  for (i = 0; i < N; i++) {\n    if (i + i <= N)\n      A[2][24] = (A[2][23] + A[3][24] + A[i + 2][24] + A[i + 1][i + 22]) / 4.0;\n    \
         for (j = 0; j <= M + i; j++) {\n      for (k = 1; k <= j + 3; k++)\n        A[j + 1][N - k + 21] = 0.5;\n      \
         for (k = i; k < j; k++)\n        A[i][j + 22] = 0.5;\n    }\n  }\n",
    ),
    (
        // ISL's scheduler fails ("unable to carry dependences"): a fallback plan must take over.
        "scheduler-failure",
        "  for (i = 1; i <= N; i++)\n    for (j = M - 3; j <= N; j++) {\n      A[i + 2][5] = A[i + 3][5];\n      A[M - i + 1][j + 3] = 0.5;\n    }\n",
    ),
    (
        // Divisions with unknown signs make ISL's scheduler run for minutes: the time budget falls back.
        "slow-scheduler",
        "  for (i = 2 * N; i > (M - 3) / 3; i--)\n    for (j = M + 2; j < 3; j++) {\n      if (N - 3 < 0) {\n        \
         for (k = N; k < M - 1; k++) {\n          A[(k - 2 * k) % 4][1] = -2 + 0.5 * A[-1][(N + i + 2) % 4] - 0.25 * y[j];\n          \
         y[4 - k + 2] = -1 + 0.5 * A[i - 1][k - j];\n        }\n      } else {\n        for (k = (j - i) / 3; k < N + 2; k++)\n          \
         y[i - 4] = -1 - 0.5 * A[k + 2][2 * k];\n      }\n      for (k = N + 2; k > j; k--)\n        \
         y[2 * i + k] = 1 - 0.5 * B[(M + i - 3) / 2][N + 6];\n    }\n",
    ),
    (
        // A scalar temporary written in a nest and read after it.
        "scalar-temporary",
        "  for (i = 0; i < N; i++) {\n    t = 0.5 * x[i];\n    for (j = 0; j < M; j++)\n      A[i][j] = A[i][j] + t * y[j];\n  }\n  \
         for (i = 0; i < N; i++)\n    for (j = 0; j < M; j++)\n      B[j][i] = 0.25 * A[i][j] + 0.5 * B[j][i];\n",
    ),
];

#[test]
fn regressions_print_what_the_original_prints() {
    let cfg = config("regressions");
    let mut failures = Vec::new();
    for (name, body) in REGRESSIONS {
        let case = fuzz::check_scop(&cfg, name, body, &[[9, 6], [4, 11]]);
        if case.outcome != Outcome::Equal {
            failures.push(format!("{name}: {:?}: {}", case.outcome, case.detail));
        }
    }
    let _ = std::fs::remove_dir_all(&cfg.work);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn seeded_random_programs_and_mutants() {
    let cfg = config("seeded");
    let plan = fuzz::Plan { programs: 110, mutants: 70, first: 1000, jobs: 2 };
    let summary = fuzz::run(&cfg, &plan, &|_| {});
    let _ = std::fs::remove_dir_all(&cfg.work);
    print!("{summary}");
    assert_eq!(summary.total(), 180);
    assert_eq!(summary.failed(), 0, "{summary}");
    // The generator must mostly produce programs tss accepts, or it tests little.
    assert!(summary.counts.get(&Outcome::Equal).copied().unwrap_or(0) >= 90, "{summary}");
    let worst = summary.slowest.first().map_or(0.0, |s| s.0);
    // Most calls take well under 2 s; a program whose scheduling exceeds
    // every plan's wall-clock budget (4 + 2 + 1 s, a safety net behind the
    // operation cap) falls back after about 7 s, and compilations run beside it.
    assert!(worst <= 9.0, "slowest tss tile call took {worst:.2} s\n{summary}");
}
