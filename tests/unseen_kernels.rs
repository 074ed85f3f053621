//! `tss tile` on kernels it was never tuned on: the PolyBench/C 4.2.1
//! linear-algebra, solver and stencil kernels that are not in `polybench/`,
//! written here from their mathematics in PolyBench's shape (imperfect nests,
//! scalar temporaries, `SCALAR_VAL`, triangular and decreasing loops,
//! statements before the first loop). Each becomes a whole program that
//! initialises its arrays deterministically, runs the SCoP and prints every
//! array exactly (hexadecimal floats); the tiled program must print the same.
//!
//! Equality is exact, as in `tile_kernels.rs`: tiling respects every
//! dependence, so each reduction keeps its order.

mod common;

use std::fmt::Write;

use common::compile_and_run;

use tss::TileOptions;

/// One kernel: small non-square parameter values, arrays with their
/// dimensions, the kernel function's locals, and the SCoP.
struct Kernel {
    name: &'static str,
    params: &'static [(&'static str, i64)],
    arrays: &'static [(&'static str, &'static [&'static str])],
    locals: &'static str,
    scop: &'static str,
}

const KERNELS: &[Kernel] = &[
    Kernel {
        name: "atax",
        params: &[("M", 29), ("N", 37)],
        arrays: &[("A", &["M", "N"]), ("x", &["N"]), ("y", &["N"]), ("tmp", &["M"])],
        locals: "int i, j;",
        scop: "
  for (i = 0; i < N; i++)
    y[i] = 0;
  for (i = 0; i < M; i++) {
    tmp[i] = SCALAR_VAL(0.0);
    for (j = 0; j < N; j++)
      tmp[i] = tmp[i] + A[i][j] * x[j];
    for (j = 0; j < N; j++)
      y[j] = y[j] + A[i][j] * tmp[i];
  }",
    },
    Kernel {
        name: "bicg",
        params: &[("M", 31), ("N", 23)],
        arrays: &[("A", &["N", "M"]), ("s", &["M"]), ("q", &["N"]), ("p", &["M"]), ("r", &["N"])],
        locals: "int i, j;",
        scop: "
  for (i = 0; i < M; i++)
    s[i] = 0;
  for (i = 0; i < N; i++) {
    q[i] = SCALAR_VAL(0.0);
    for (j = 0; j < M; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
    }
  }",
    },
    Kernel {
        name: "mvt",
        params: &[("N", 41)],
        arrays: &[("A", &["N", "N"]), ("x1", &["N"]), ("x2", &["N"]), ("y_1", &["N"]), ("y_2", &["N"])],
        locals: "int i, j;",
        scop: "
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      x1[i] = x1[i] + A[i][j] * y_1[j];
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      x2[i] = x2[i] + A[j][i] * y_2[j];",
    },
    Kernel {
        name: "gesummv",
        params: &[("N", 39)],
        arrays: &[("A", &["N", "N"]), ("B", &["N", "N"]), ("tmp", &["N"]), ("x", &["N"]), ("y", &["N"])],
        locals: "int i, j; DATA_TYPE alpha = 1.5, beta = 1.2;",
        scop: "
  for (i = 0; i < N; i++) {
    tmp[i] = SCALAR_VAL(0.0);
    y[i] = SCALAR_VAL(0.0);
    for (j = 0; j < N; j++) {
      tmp[i] = A[i][j] * x[j] + tmp[i];
      y[i] = B[i][j] * x[j] + y[i];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }",
    },
    Kernel {
        name: "gemver",
        params: &[("N", 35)],
        arrays: &[
            ("A", &["N", "N"]),
            ("u1", &["N"]),
            ("v1", &["N"]),
            ("u2", &["N"]),
            ("v2", &["N"]),
            ("w", &["N"]),
            ("x", &["N"]),
            ("y", &["N"]),
            ("z", &["N"]),
        ],
        locals: "int i, j; DATA_TYPE alpha = 1.5, beta = 1.2;",
        scop: "
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      x[i] = x[i] + beta * A[j][i] * y[j];
  for (i = 0; i < N; i++)
    x[i] = x[i] + z[i];
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      w[i] = w[i] + alpha * A[i][j] * x[j];",
    },
    Kernel {
        name: "doitgen",
        params: &[("NR", 9), ("NQ", 11), ("NP", 13)],
        arrays: &[("A", &["NR", "NQ", "NP"]), ("C4", &["NP", "NP"]), ("sum", &["NP"])],
        locals: "int r, q, p, s;",
        scop: "
  for (r = 0; r < NR; r++)
    for (q = 0; q < NQ; q++) {
      for (p = 0; p < NP; p++) {
        sum[p] = SCALAR_VAL(0.0);
        for (s = 0; s < NP; s++)
          sum[p] += A[r][q][s] * C4[s][p];
      }
      for (p = 0; p < NP; p++)
        A[r][q][p] = sum[p];
    }",
    },
    Kernel {
        name: "cholesky",
        params: &[("N", 37)],
        arrays: &[("A", &["N", "N"])],
        locals: "int i, j, k;",
        scop: "
  for (i = 0; i < N; i++) {
    for (j = 0; j < i; j++) {
      for (k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[j][k];
      A[i][j] /= A[j][j];
    }
    for (k = 0; k < i; k++)
      A[i][i] -= A[i][k] * A[i][k];
    A[i][i] = SQRT_FUN(A[i][i]);
  }",
    },
    Kernel {
        name: "lu",
        params: &[("N", 33)],
        arrays: &[("A", &["N", "N"])],
        locals: "int i, j, k;",
        scop: "
  for (i = 0; i < N; i++) {
    for (j = 0; j < i; j++) {
      for (k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[k][j];
      A[i][j] /= A[j][j];
    }
    for (j = i; j < N; j++)
      for (k = 0; k < i; k++)
        A[i][j] -= A[i][k] * A[k][j];
  }",
    },
    Kernel {
        name: "ludcmp",
        params: &[("N", 31)],
        arrays: &[("A", &["N", "N"]), ("b", &["N"]), ("x", &["N"]), ("y", &["N"])],
        locals: "int i, j, k; DATA_TYPE w;",
        scop: "
  for (i = 0; i < N; i++) {
    for (j = 0; j < i; j++) {
      w = A[i][j];
      for (k = 0; k < j; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w / A[j][j];
    }
    for (j = i; j < N; j++) {
      w = A[i][j];
      for (k = 0; k < i; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w;
    }
  }
  for (i = 0; i < N; i++) {
    w = b[i];
    for (j = 0; j < i; j++)
      w -= A[i][j] * y[j];
    y[i] = w;
  }
  for (i = N - 1; i >= 0; i--) {
    w = y[i];
    for (j = i + 1; j < N; j++)
      w -= A[i][j] * x[j];
    x[i] = w / A[i][i];
  }",
    },
    Kernel {
        name: "trisolv",
        params: &[("N", 43)],
        arrays: &[("L", &["N", "N"]), ("x", &["N"]), ("b", &["N"])],
        locals: "int i, j;",
        scop: "
  for (i = 0; i < N; i++) {
    x[i] = b[i];
    for (j = 0; j < i; j++)
      x[i] -= L[i][j] * x[j];
    x[i] = x[i] / L[i][i];
  }",
    },
    Kernel {
        name: "durbin",
        params: &[("N", 40)],
        arrays: &[("r", &["N"]), ("y", &["N"]), ("z", &["N"])],
        locals: "int i, k; DATA_TYPE alpha, beta, sum;",
        scop: "
  y[0] = -r[0];
  beta = SCALAR_VAL(1.0);
  alpha = -r[0];
  for (k = 1; k < N; k++) {
    beta = (1 - alpha * alpha) * beta;
    sum = SCALAR_VAL(0.0);
    for (i = 0; i < k; i++)
      sum += r[k - i - 1] * y[i];
    alpha = -(r[k] + sum) / beta;
    for (i = 0; i < k; i++)
      z[i] = y[i] + alpha * y[k - i - 1];
    for (i = 0; i < k; i++)
      y[i] = z[i];
    y[k] = alpha;
  }",
    },
    Kernel {
        name: "gramschmidt",
        params: &[("M", 27), ("N", 21)],
        arrays: &[("A", &["M", "N"]), ("R", &["N", "N"]), ("Q", &["M", "N"])],
        locals: "int i, j, k; DATA_TYPE nrm;",
        scop: "
  for (k = 0; k < N; k++) {
    nrm = SCALAR_VAL(0.0);
    for (i = 0; i < M; i++)
      nrm += A[i][k] * A[i][k];
    R[k][k] = SQRT_FUN(nrm);
    for (i = 0; i < M; i++)
      Q[i][k] = A[i][k] / R[k][k];
    for (j = k + 1; j < N; j++) {
      R[k][j] = SCALAR_VAL(0.0);
      for (i = 0; i < M; i++)
        R[k][j] += Q[i][k] * A[i][j];
      for (i = 0; i < M; i++)
        A[i][j] = A[i][j] - Q[i][k] * R[k][j];
    }
  }",
    },
    Kernel {
        name: "jacobi-1d",
        params: &[("TSTEPS", 7), ("N", 45)],
        arrays: &[("A", &["N"]), ("B", &["N"])],
        locals: "int t, i;",
        scop: "
  for (t = 0; t < TSTEPS; t++) {
    for (i = 1; i < N - 1; i++)
      B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
    for (i = 1; i < N - 1; i++)
      A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
  }",
    },
    Kernel {
        name: "fdtd-2d",
        params: &[("TMAX", 6), ("NX", 23), ("NY", 29)],
        arrays: &[("ex", &["NX", "NY"]), ("ey", &["NX", "NY"]), ("hz", &["NX", "NY"]), ("fict", &["TMAX"])],
        locals: "int t, i, j;",
        scop: "
  for (t = 0; t < TMAX; t++) {
    for (j = 0; j < NY; j++)
      ey[0][j] = fict[t];
    for (i = 1; i < NX; i++)
      for (j = 0; j < NY; j++)
        ey[i][j] = ey[i][j] - SCALAR_VAL(0.5) * (hz[i][j] - hz[i - 1][j]);
    for (i = 0; i < NX; i++)
      for (j = 1; j < NY; j++)
        ex[i][j] = ex[i][j] - SCALAR_VAL(0.5) * (hz[i][j] - hz[i][j - 1]);
    for (i = 0; i < NX - 1; i++)
      for (j = 0; j < NY - 1; j++)
        hz[i][j] = hz[i][j] - SCALAR_VAL(0.7) * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
  }",
    },
    Kernel {
        name: "heat-3d",
        params: &[("TSTEPS", 4), ("N", 14)],
        arrays: &[("A", &["N", "N", "N"]), ("B", &["N", "N", "N"])],
        locals: "int t, i, j, k;",
        scop: "
  for (t = 1; t <= TSTEPS; t++) {
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        for (k = 1; k < N - 1; k++)
          B[i][j][k] = SCALAR_VAL(0.125) * (A[i + 1][j][k] - SCALAR_VAL(2.0) * A[i][j][k] + A[i - 1][j][k])
                     + SCALAR_VAL(0.125) * (A[i][j + 1][k] - SCALAR_VAL(2.0) * A[i][j][k] + A[i][j - 1][k])
                     + SCALAR_VAL(0.125) * (A[i][j][k + 1] - SCALAR_VAL(2.0) * A[i][j][k] + A[i][j][k - 1])
                     + A[i][j][k];
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        for (k = 1; k < N - 1; k++)
          A[i][j][k] = SCALAR_VAL(0.125) * (B[i + 1][j][k] - SCALAR_VAL(2.0) * B[i][j][k] + B[i - 1][j][k])
                     + SCALAR_VAL(0.125) * (B[i][j + 1][k] - SCALAR_VAL(2.0) * B[i][j][k] + B[i][j - 1][k])
                     + SCALAR_VAL(0.125) * (B[i][j][k + 1] - SCALAR_VAL(2.0) * B[i][j][k] + B[i][j][k - 1])
                     + B[i][j][k];
  }",
    },
    Kernel {
        name: "adi",
        params: &[("TSTEPS", 5), ("N", 26)],
        arrays: &[("u", &["N", "N"]), ("v", &["N", "N"]), ("p", &["N", "N"]), ("q", &["N", "N"])],
        locals: "int t, i, j; DATA_TYPE DX, DY, DT, B1, B2, mul1, mul2, a, b, c, d, e, f;",
        scop: "
  DX = SCALAR_VAL(1.0) / (DATA_TYPE)N;
  DY = SCALAR_VAL(1.0) / (DATA_TYPE)N;
  DT = SCALAR_VAL(1.0) / (DATA_TYPE)TSTEPS;
  B1 = SCALAR_VAL(2.0);
  B2 = SCALAR_VAL(1.0);
  mul1 = B1 * DT / (DX * DX);
  mul2 = B2 * DT / (DY * DY);
  a = -mul1 / SCALAR_VAL(2.0);
  b = SCALAR_VAL(1.0) + mul1;
  c = a;
  d = -mul2 / SCALAR_VAL(2.0);
  e = SCALAR_VAL(1.0) + mul2;
  f = d;
  for (t = 1; t <= TSTEPS; t++) {
    for (i = 1; i < N - 1; i++) {
      v[0][i] = SCALAR_VAL(1.0);
      p[i][0] = SCALAR_VAL(0.0);
      q[i][0] = v[0][i];
      for (j = 1; j < N - 1; j++) {
        p[i][j] = -c / (a * p[i][j - 1] + b);
        q[i][j] = (-d * u[j][i - 1] + (SCALAR_VAL(1.0) + SCALAR_VAL(2.0) * d) * u[j][i] - f * u[j][i + 1]
                   - a * q[i][j - 1]) / (a * p[i][j - 1] + b);
      }
      v[N - 1][i] = SCALAR_VAL(1.0);
      for (j = N - 2; j >= 1; j--)
        v[j][i] = p[i][j] * v[j + 1][i] + q[i][j];
    }
    for (i = 1; i < N - 1; i++) {
      u[i][0] = SCALAR_VAL(1.0);
      p[i][0] = SCALAR_VAL(0.0);
      q[i][0] = u[i][0];
      for (j = 1; j < N - 1; j++) {
        p[i][j] = -f / (d * p[i][j - 1] + e);
        q[i][j] = (-a * v[i - 1][j] + (SCALAR_VAL(1.0) + SCALAR_VAL(2.0) * a) * v[i][j] - c * v[i + 1][j]
                   - d * q[i][j - 1]) / (d * p[i][j - 1] + e);
      }
      u[i][N - 1] = SCALAR_VAL(1.0);
      for (j = N - 2; j >= 1; j--)
        u[i][j] = p[i][j] * u[i][j + 1] + q[i][j];
    }
  }",
    },
    Kernel {
        name: "floyd-warshall",
        params: &[("N", 34)],
        arrays: &[("path", &["N", "N"])],
        locals: "int i, j, k;",
        scop: "
  for (k = 0; k < N; k++)
    for (i = 0; i < N; i++)
      for (j = 0; j < N; j++)
        path[i][j] = path[i][j] < path[i][k] + path[k][j] ? path[i][j] : path[i][k] + path[k][j];",
    },
];

/// Tile sizes: degenerate, odd, Pluto's default, larger than every extent,
/// and different per dimension.
const TILES: [&[usize]; 5] = [&[1], &[7], &[32], &[100], &[5, 16, 3]];

/// A whole program around the kernel's SCoP. Arrays are initialised from
/// their indices: 2-D ones symmetric and diagonally dominant, so the
/// factorisations (cholesky, lu, ludcmp, trisolv, gramschmidt) stay well
/// defined; 1-D ones small, so durbin's recurrence stays bounded.
fn program(k: &Kernel) -> String {
    let mut c = String::from("#include <math.h>\n#include <stdio.h>\n#include <polybench.h>\n\n");
    for (p, v) in k.params {
        let _ = writeln!(c, "#define {p} {v}");
    }
    for (a, dims) in k.arrays {
        let _ = writeln!(c, "static DATA_TYPE {a}{};", dims.iter().map(|d| format!("[{d}]")).collect::<String>());
    }
    let _ = write!(c, "\nstatic void kernel(void)\n{{\n  {}\n#pragma scop{}\n#pragma endscop\n}}\n", k.locals, k.scop);
    c.push_str("\nint main(void)\n{\n  int i0, i1, i2;\n");
    for (a, dims) in k.arrays {
        let (open, at, value) = match dims.len() {
            1 => (
                format!("for (i0 = 0; i0 < {}; i0++)", dims[0]),
                "[i0]".to_string(),
                format!("(i0 % 5 + 1) / (6.0 * {})", dims[0]),
            ),
            2 => (
                format!("for (i0 = 0; i0 < {}; i0++) for (i1 = 0; i1 < {}; i1++)", dims[0], dims[1]),
                "[i0][i1]".to_string(),
                format!("((i0 + i1) % 7 + 1) / 8.0 + (i0 == i1 ? 2.0 * {} : 0.0)", dims[0]),
            ),
            _ => (
                format!(
                    "for (i0 = 0; i0 < {}; i0++) for (i1 = 0; i1 < {}; i1++) for (i2 = 0; i2 < {}; i2++)",
                    dims[0], dims[1], dims[2]
                ),
                "[i0][i1][i2]".to_string(),
                "((i0 + 2 * i1 + 3 * i2) % 9 + 1) / 10.0".to_string(),
            ),
        };
        let _ = writeln!(c, "  {open} {a}{at} = {value};");
    }
    c.push_str("  kernel();\n");
    for (a, dims) in k.arrays {
        let n: Vec<String> = dims.iter().map(|d| format!("({d})")).collect();
        let _ = writeln!(
            c,
            "  printf(\"{a}:\");\n  for (i0 = 0; i0 < {}; i0++) printf(\" %a\", ((DATA_TYPE *){a})[i0]);\n  printf(\"\\n\");",
            n.join(" * ")
        );
    }
    c.push_str("  return 0;\n}\n");
    c
}

/// Tests check what tss computes, not how fast: ISL's time budget is
/// scaled up so that adi (1.1 s of scheduling on a quiet machine) still gets
/// its tiled plan on a loaded one. Every test calls this first, so no other
/// thread reads the environment while it is set.
fn relax_time_budget() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        if std::env::var_os("TSS_TIME_SCALE").is_none() {
            // SAFETY: the other test threads wait in `call_once`; none reads the environment now.
            unsafe { std::env::set_var("TSS_TIME_SCALE", "4") };
        }
    });
}

fn check(k: &Kernel) {
    relax_time_budget();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(format!("{}.c", k.name));
    let src = program(k);
    std::fs::write(&file, &src).unwrap();
    let expected = compile_and_run(&file, &dir.path().join("orig"), &[]);
    assert_eq!(expected.lines().count(), k.arrays.len(), "{}: one line per array", k.name);
    assert!(!expected.contains("nan") && !expected.contains("inf"), "{}: initial data ill-conditioned", k.name);
    for parallel in [false, true] {
        for tile in TILES {
            let opts = TileOptions { config: tss::Config::tiled(tile.to_vec()), parallel, ..TileOptions::default() };
            let (code, _) = tss::tile_source(&file, &src, &opts).unwrap_or_else(|e| panic!("{}: {e}", k.name));
            assert!(code.contains("TSS_T1"), "{}: no tiled band", k.name);
            let tiled = dir.path().join("tiled.c");
            std::fs::write(&tiled, &code).unwrap();
            let got = compile_and_run(&tiled, &dir.path().join("tiled"), &[]);
            assert!(got == expected, "{}: tile {tile:?} parallel={parallel} computes different arrays", k.name);
        }
    }
}

macro_rules! unseen_tests {
    ($($test:ident => $name:expr),* $(,)?) => {$(
        #[test]
        fn $test() {
            check(KERNELS.iter().find(|k| k.name == $name).expect("kernel listed in KERNELS"));
        }
    )*};
}

unseen_tests! {
    atax => "atax",
    bicg => "bicg",
    mvt => "mvt",
    gesummv => "gesummv",
    gemver => "gemver",
    doitgen => "doitgen",
    cholesky => "cholesky",
    lu => "lu",
    ludcmp => "ludcmp",
    trisolv => "trisolv",
    durbin => "durbin",
    gramschmidt => "gramschmidt",
    jacobi_1d => "jacobi-1d",
    fdtd_2d => "fdtd-2d",
    heat_3d => "heat-3d",
    adi => "adi",
    floyd_warshall => "floyd-warshall",
}
