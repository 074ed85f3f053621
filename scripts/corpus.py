#!/usr/bin/env python3
"""Writes tss's kernel corpus, corpus/<family>/<name>.c, from the specs below.

Each kernel is a loop nest written from its mathematics (the shapes of
dense linear algebra, tensor contractions, NN layers, data mining, solvers
and stencils, with other loop orders and transposed operands), wrapped in a
small program: sizes are macros, -DTSS_SMALL picks odd small sizes for the
tests, -DCORPUS_DUMP prints the output arrays exactly. A `tss-range:` line
tells `tss collect` where each size is drawn from. Rerun after editing a spec:

    scripts/corpus.py            # rewrites corpus/
    scripts/corpus.py --check    # exits 1 if corpus/ differs from the specs
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "corpus"


def K(name, family, doc, params, arrays, scop, scalars=(), dtype="double", iters="i, j, k"):
    """params: (NAME, default, small, "lo..hi"); arrays: (name, [dims], output?)."""
    return dict(name=name, family=family, doc=doc, params=params, arrays=arrays, scop=scop.strip("\n"),
                scalars=scalars, dtype=dtype, iters=iters)


# The three sizes of a matrix product, drawn as in BLAS use: 32..2048 each.
MNK = [("NI", 900, 37, "32..2048"), ("NJ", 1000, 41, "32..2048"), ("NK", 1100, 29, "32..2048")]
MN = [("M", 3000, 37, "64..8192"), ("N", 3500, 41, "64..8192")]
# A batch of matrix products' sizes, and of matrix-vector updates'.
BATCHED_MNK = [("NB", 16, 3, "1..64"), ("NI", 256, 13, "16..512"), ("NJ", 256, 17, "16..512"),
               ("NK", 256, 11, "16..512")]
BATCHED_MN = [("NB", 64, 3, "1..512"), ("NI", 256, 13, "16..2048"), ("NJ", 256, 17, "16..2048")]
# MTTKRP's sizes (the output's column count NJ smaller).
MTTKRP = [("NI", 128, 7, "8..512"), ("NJ", 64, 9, "8..256"), ("NK", 128, 5, "8..512"), ("NL", 128, 11, "8..512")]
# A 2-D convolution's sizes (batch 1), and its arrays stored channels first.
CONV2D = [("K", 64, 5, "4..256"), ("C", 64, 3, "1..256"), ("H", 56, 9, "8..224"), ("W", 56, 11, "8..224"),
          ("R", 3, 3, "1..7"), ("S", 3, 2, "1..7")]
CONV2D_CHANNELS_FIRST = [("out", ["K", "H", "W"], True), ("w", ["K", "C", "R", "S"], False),
                         ("in", ["C", "H + R - 1", "W + S - 1"], False)]

SPECS = [
    # Dense linear algebra, level 3: loop orders and transposes of C += A B.
    K("gemm-ikj", "blas", "C += alpha * A * B in loop order i, k, j (row-major friendly, stride-1 innermost).",
      MNK, [("C", ["NI", "NJ"], True), ("A", ["NI", "NK"], False), ("B", ["NK", "NJ"], False)], """
for (i = 0; i < NI; i++)
  for (k = 0; k < NK; k++)
    for (j = 0; j < NJ; j++)
      C[i][j] += alpha * A[i][k] * B[k][j];
""", scalars=["alpha"]),
    K("gemm-jki", "blas", "C += A * B in loop order j, k, i (the column-major order: strided innermost).",
      MNK, [("C", ["NI", "NJ"], True), ("A", ["NI", "NK"], False), ("B", ["NK", "NJ"], False)], """
for (j = 0; j < NJ; j++)
  for (k = 0; k < NK; k++)
    for (i = 0; i < NI; i++)
      C[i][j] += A[i][k] * B[k][j];
"""),
    K("gemm-tn", "blas", "C += A^T * B with A stored K x I (order i, j, k).",
      MNK, [("C", ["NI", "NJ"], True), ("A", ["NK", "NI"], False), ("B", ["NK", "NJ"], False)], """
for (i = 0; i < NI; i++)
  for (j = 0; j < NJ; j++)
    for (k = 0; k < NK; k++)
      C[i][j] += A[k][i] * B[k][j];
"""),
    K("gemm-nt", "blas", "C += A * B^T with B stored J x K: each element a dot product of two rows.",
      MNK, [("C", ["NI", "NJ"], True), ("A", ["NI", "NK"], False), ("B", ["NJ", "NK"], False)], """
for (i = 0; i < NI; i++)
  for (j = 0; j < NJ; j++)
    for (k = 0; k < NK; k++)
      C[i][j] += A[i][k] * B[j][k];
"""),
    K("gemm-tt", "blas", "C += A^T * B^T in loop order k, i, j.",
      MNK, [("C", ["NI", "NJ"], True), ("A", ["NK", "NI"], False), ("B", ["NJ", "NK"], False)], """
for (k = 0; k < NK; k++)
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      C[i][j] += A[k][i] * B[j][k];
"""),
    K("syrk-upper", "blas", "Upper triangle of C += A * A^T, order i, j, k (dot products of rows).",
      [("N", 1000, 39, "32..2048"), ("M", 900, 33, "32..2048")],
      [("C", ["N", "N"], True), ("A", ["N", "M"], False)], """
for (i = 0; i < N; i++)
  for (j = i; j < N; j++)
    for (k = 0; k < M; k++)
      C[i][j] += A[i][k] * A[j][k];
"""),
    K("trmm-upper", "blas", "B := A * B in place, A unit upper triangular (row i reads the rows below it).",
      [("M", 1000, 33, "32..2048"), ("N", 1100, 39, "32..2048")],
      [("B", ["M", "N"], True), ("A", ["M", "M"], False)], """
for (i = 0; i < M; i++)
  for (k = i + 1; k < M; k++)
    for (j = 0; j < N; j++)
      B[i][j] += A[i][k] * B[k][j];
"""),
    K("trsm-lower", "blas", "Solves L X = B in place for X, L lower triangular (forward substitution on N columns).",
      [("M", 1000, 33, "32..2048"), ("N", 1100, 39, "32..2048")],
      [("B", ["M", "N"], True), ("L", ["M", "M"], False)], """
for (i = 0; i < M; i++) {
  for (k = 0; k < i; k++)
    for (j = 0; j < N; j++)
      B[i][j] -= L[i][k] * B[k][j];
  for (j = 0; j < N; j++)
    B[i][j] = B[i][j] / L[i][i];
}
"""),
    K("gemm-chain", "blas", "E = (A * B) * C: two products through a temporary, as in 2mm without scaling.",
      [("NI", 800, 37, "32..1024"), ("NJ", 900, 41, "32..1024"), ("NK", 700, 29, "32..1024"),
       ("NL", 1000, 23, "32..1024")],
      [("E", ["NI", "NL"], True), ("T", ["NI", "NJ"], True), ("A", ["NI", "NK"], False),
       ("B", ["NK", "NJ"], False), ("C", ["NJ", "NL"], False)], """
for (i = 0; i < NI; i++)
  for (j = 0; j < NJ; j++)
    for (k = 0; k < NK; k++)
      T[i][j] += A[i][k] * B[k][j];
for (i = 0; i < NI; i++)
  for (j = 0; j < NL; j++)
    for (k = 0; k < NJ; k++)
      E[i][j] += T[i][k] * C[k][j];
"""),
    # Level 2: matrix-vector shapes (2-deep bands, memory bound).
    K("gemv", "blas", "y += A * x.", MN,
      [("y", ["M"], True), ("A", ["M", "N"], False), ("x", ["N"], False)], """
for (i = 0; i < M; i++)
  for (j = 0; j < N; j++)
    y[i] += A[i][j] * x[j];
""", iters="i, j"),
    K("gemv-t", "blas", "y += A^T * x, order i, j (y updated along rows of A).", MN,
      [("y", ["N"], True), ("A", ["M", "N"], False), ("x", ["M"], False)], """
for (i = 0; i < M; i++)
  for (j = 0; j < N; j++)
    y[j] += A[i][j] * x[i];
""", iters="i, j"),
    K("ger", "blas", "Rank-1 update A += alpha * x * y^T.", MN,
      [("A", ["M", "N"], True), ("x", ["M"], False), ("y", ["N"], False)], """
for (i = 0; i < M; i++)
  for (j = 0; j < N; j++)
    A[i][j] += alpha * x[i] * y[j];
""", scalars=["alpha"], iters="i, j"),
    K("mvt", "blas", "x1 += A * y1 and x2 += A^T * y2 in two nests over the same matrix.",
      [("N", 3000, 41, "64..8192")],
      [("x1", ["N"], True), ("x2", ["N"], True), ("A", ["N", "N"], False), ("y1", ["N"], False),
       ("y2", ["N"], False)], """
for (i = 0; i < N; i++)
  for (j = 0; j < N; j++)
    x1[i] += A[i][j] * y1[j];
for (i = 0; i < N; i++)
  for (j = 0; j < N; j++)
    x2[i] += A[j][i] * y2[j];
""", iters="i, j"),
    K("bicg", "blas", "s = A^T * r and q = A * p in one sweep over A (BiCG's two products).", MN,
      [("s", ["N"], True), ("q", ["M"], True), ("A", ["M", "N"], False), ("r", ["M"], False),
       ("p", ["N"], False)], """
for (i = 0; i < M; i++)
  for (j = 0; j < N; j++) {
    s[j] += r[i] * A[i][j];
    q[i] += A[i][j] * p[j];
  }
""", iters="i, j"),
    K("atax", "blas", "y = A^T * (A * x) through a temporary.", MN,
      [("y", ["N"], True), ("t", ["M"], True), ("A", ["M", "N"], False), ("x", ["N"], False)], """
for (i = 0; i < M; i++)
  for (j = 0; j < N; j++)
    t[i] += A[i][j] * x[j];
for (i = 0; i < M; i++)
  for (j = 0; j < N; j++)
    y[j] += A[i][j] * t[i];
""", iters="i, j"),
    K("gesummv", "blas", "y = alpha * A * x + beta * B * x.", [("N", 3000, 41, "64..8192")],
      [("y", ["N"], True), ("t", ["N"], True), ("A", ["N", "N"], False), ("B", ["N", "N"], False),
       ("x", ["N"], False)], """
for (i = 0; i < N; i++) {
  for (j = 0; j < N; j++) {
    t[i] += A[i][j] * x[j];
    y[i] += B[i][j] * x[j];
  }
  y[i] = alpha * t[i] + beta * y[i];
}
""", scalars=["alpha", "beta"], iters="i, j"),
    K("gemver", "blas", "A += u1 v1^T + u2 v2^T, x += beta A^T y + z, w += alpha A x.",
      [("N", 3000, 41, "64..8192")],
      [("A", ["N", "N"], True), ("x", ["N"], True), ("w", ["N"], True), ("u1", ["N"], False),
       ("v1", ["N"], False), ("u2", ["N"], False), ("v2", ["N"], False), ("y", ["N"], False),
       ("z", ["N"], False)], """
for (i = 0; i < N; i++)
  for (j = 0; j < N; j++)
    A[i][j] += u1[i] * v1[j] + u2[i] * v2[j];
for (i = 0; i < N; i++)
  for (j = 0; j < N; j++)
    x[i] += beta * A[j][i] * y[j];
for (i = 0; i < N; i++)
  x[i] += z[i];
for (i = 0; i < N; i++)
  for (j = 0; j < N; j++)
    w[i] += alpha * A[i][j] * x[j];
""", scalars=["alpha", "beta"], iters="i, j"),
    # Tensors.
    K("batched-matmul", "tensor", "C[b] += A[b] * B[b] for a batch of independent products.",
      BATCHED_MNK,
      [("C", ["NB", "NI", "NJ"], True), ("A", ["NB", "NI", "NK"], False), ("B", ["NB", "NK", "NJ"], False)], """
for (b = 0; b < NB; b++)
  for (i = 0; i < NI; i++)
    for (k = 0; k < NK; k++)
      for (j = 0; j < NJ; j++)
        C[b][i][j] += A[b][i][k] * B[b][k][j];
""", iters="b, i, j, k"),
    K("doitgen", "tensor", "Multiresolution kernel: S[r][q][p] = sum_s A[r][q][s] * W[s][p], then copied back into A.",
      [("NR", 128, 7, "8..256"), ("NQ", 128, 9, "8..256"), ("NP", 128, 11, "16..512")],
      [("A", ["NR", "NQ", "NP"], True), ("S", ["NR", "NQ", "NP"], True), ("W", ["NP", "NP"], False)], """
for (r = 0; r < NR; r++)
  for (q = 0; q < NQ; q++)
    for (p = 0; p < NP; p++)
      for (s = 0; s < NP; s++)
        S[r][q][p] += A[r][q][s] * W[s][p];
for (r = 0; r < NR; r++)
  for (q = 0; q < NQ; q++)
    for (p = 0; p < NP; p++)
      A[r][q][p] = S[r][q][p];
""", iters="r, q, p, s"),
    K("ttm", "tensor", "Tensor-times-matrix along the last mode: Y[i][j][k] += X[i][j][l] * U[l][k].",
      [("NI", 64, 5, "4..256"), ("NJ", 128, 7, "8..512"), ("NK", 128, 9, "8..512"), ("NL", 128, 11, "8..512")],
      [("Y", ["NI", "NJ", "NK"], True), ("X", ["NI", "NJ", "NL"], False), ("U", ["NL", "NK"], False)], """
for (i = 0; i < NI; i++)
  for (j = 0; j < NJ; j++)
    for (l = 0; l < NL; l++)
      for (k = 0; k < NK; k++)
        Y[i][j][k] += X[i][j][l] * U[l][k];
""", iters="i, j, k, l"),
    K("mttkrp", "tensor", "Matricised tensor times Khatri-Rao product: A[i][j] += X[i][k][l] * C[k][j] * D[l][j].",
      MTTKRP,
      [("A", ["NI", "NJ"], True), ("X", ["NI", "NK", "NL"], False), ("C", ["NK", "NJ"], False),
       ("D", ["NL", "NJ"], False)], """
for (i = 0; i < NI; i++)
  for (k = 0; k < NK; k++)
    for (l = 0; l < NL; l++)
      for (j = 0; j < NJ; j++)
        A[i][j] += X[i][k][l] * C[k][j] * D[l][j];
""", iters="i, j, k, l"),
    K("contraction", "tensor", "C[a][b] += A[a][c][d] * B[d][c][b]: a two-index contraction with a transposed operand.",
      [("NA", 128, 7, "8..512"), ("NB", 128, 9, "8..512"), ("NC", 64, 5, "4..128"), ("ND", 64, 11, "4..128")],
      [("C", ["NA", "NB"], True), ("A", ["NA", "NC", "ND"], False), ("B", ["ND", "NC", "NB"], False)], """
for (a = 0; a < NA; a++)
  for (c = 0; c < NC; c++)
    for (d = 0; d < ND; d++)
      for (b = 0; b < NB; b++)
        C[a][b] += A[a][c][d] * B[d][c][b];
""", iters="a, b, c, d"),
    # Neural-network layers.
    K("conv2d-nchw", "nn", "2-D convolution, batch 1, channels first: out[k][y][x] += w[k][c][r][s] * in[c][y+r][x+s].",
      CONV2D, CONV2D_CHANNELS_FIRST, """
for (k = 0; k < K; k++)
  for (c = 0; c < C; c++)
    for (r = 0; r < R; r++)
      for (s = 0; s < S; s++)
        for (y = 0; y < H; y++)
          for (x = 0; x < W; x++)
            out[k][y][x] += w[k][c][r][s] * in[c][y + r][x + s];
""", iters="k, c, r, s, y, x"),
    K("conv2d-nhwc", "nn", "2-D convolution, batch 1, channels last: out[y][x][k] += in[y+r][x+s][c] * w[r][s][c][k].",
      CONV2D,
      [("out", ["H", "W", "K"], True), ("in", ["H + R - 1", "W + S - 1", "C"], False),
       ("w", ["R", "S", "C", "K"], False)], """
for (y = 0; y < H; y++)
  for (x = 0; x < W; x++)
    for (r = 0; r < R; r++)
      for (s = 0; s < S; s++)
        for (c = 0; c < C; c++)
          for (k = 0; k < K; k++)
            out[y][x][k] += in[y + r][x + s][c] * w[r][s][c][k];
""", iters="y, x, r, s, c, k"),
    K("conv1d", "nn", "1-D convolution over channels: out[k][x] += w[k][c][r] * in[c][x+r].",
      [("K", 128, 5, "4..512"), ("C", 128, 3, "1..512"), ("W", 1024, 37, "16..4096"), ("R", 5, 3, "1..15")],
      [("out", ["K", "W"], True), ("w", ["K", "C", "R"], False), ("in", ["C", "W + R - 1"], False)], """
for (k = 0; k < K; k++)
  for (c = 0; c < C; c++)
    for (r = 0; r < R; r++)
      for (x = 0; x < W; x++)
        out[k][x] += w[k][c][r] * in[c][x + r];
""", iters="k, c, r, x"),
    K("conv2d-depthwise", "nn", "Depthwise 2-D convolution: each channel with its own window.",
      [("C", 64, 3, "1..512"), ("H", 112, 9, "8..224"), ("W", 112, 11, "8..224"), ("R", 3, 3, "1..7"),
       ("S", 3, 2, "1..7")],
      [("out", ["C", "H", "W"], True), ("w", ["C", "R", "S"], False),
       ("in", ["C", "H + R - 1", "W + S - 1"], False)], """
for (c = 0; c < C; c++)
  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++)
      for (r = 0; r < R; r++)
        for (s = 0; s < S; s++)
          out[c][y][x] += w[c][r][s] * in[c][y + r][x + s];
""", iters="c, y, x, r, s"),
    K("dense-layer", "nn", "Fully connected layer on a batch: out[b][o] += x[b][i] * w[o][i] (weights stored out x in).",
      [("NB", 64, 5, "1..512"), ("NO", 1024, 37, "16..4096"), ("NIN", 1024, 29, "16..4096")],
      [("out", ["NB", "NO"], True), ("x", ["NB", "NIN"], False), ("w", ["NO", "NIN"], False)], """
for (b = 0; b < NB; b++)
  for (o = 0; o < NO; o++)
    for (i = 0; i < NIN; i++)
      out[b][o] += x[b][i] * w[o][i];
""", iters="b, o, i"),
    # Data mining.
    K("covariance", "datamining", "Covariance of M variables over N samples: column means, centring, then the upper triangle of D^T D / (N - 1), mirrored.",
      [("M", 1000, 33, "32..2048"), ("N", 1200, 39, "32..2048")],
      [("cov", ["M", "M"], True), ("data", ["N", "M"], True), ("mean", ["M"], True)], """
for (j = 0; j < M; j++) {
  for (i = 0; i < N; i++)
    mean[j] += data[i][j];
  mean[j] = mean[j] / N;
}
for (i = 0; i < N; i++)
  for (j = 0; j < M; j++)
    data[i][j] -= mean[j];
for (i = 0; i < M; i++)
  for (j = i; j < M; j++) {
    for (k = 0; k < N; k++)
      cov[i][j] += data[k][i] * data[k][j];
    cov[i][j] = cov[i][j] / (N - 1);
    cov[j][i] = cov[i][j];
  }
"""),
    K("gram", "datamining", "Gram matrix G = X^T X of N samples of M features, order k, i, j (rank-1 updates).",
      [("M", 1000, 33, "32..2048"), ("N", 1200, 39, "32..2048")],
      [("G", ["M", "M"], True), ("X", ["N", "M"], False)], """
for (k = 0; k < N; k++)
  for (i = 0; i < M; i++)
    for (j = 0; j < M; j++)
      G[i][j] += X[k][i] * X[k][j];
"""),
    # Solvers.
    K("trisolv", "solvers", "Forward substitution L x = b for one right-hand side.", [("N", 3000, 41, "64..8192")],
      [("x", ["N"], True), ("L", ["N", "N"], False), ("b", ["N"], False)], """
for (i = 0; i < N; i++) {
  x[i] = b[i];
  for (j = 0; j < i; j++)
    x[i] -= L[i][j] * x[j];
  x[i] = x[i] / L[i][i];
}
""", iters="i, j"),
    K("lu-right", "solvers", "LU factorisation without pivoting, right-looking (k, i, j): each step updates the trailing matrix.",
      [("N", 1000, 39, "32..2048")], [("A", ["N", "N"], True)], """
for (k = 0; k < N; k++) {
  for (i = k + 1; i < N; i++)
    A[i][k] = A[i][k] / A[k][k];
  for (i = k + 1; i < N; i++)
    for (j = k + 1; j < N; j++)
      A[i][j] -= A[i][k] * A[k][j];
}
"""),
    # Stencils.
    K("jacobi-1d", "stencils", "3-point Jacobi sweeps alternating between A and B.",
      [("T", 200, 5, "4..512"), ("N", 20000, 41, "256..100000")],
      [("A", ["N"], True), ("B", ["N"], True)], """
for (t = 0; t < T; t++) {
  for (i = 1; i < N - 1; i++)
    B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
  for (i = 1; i < N - 1; i++)
    A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
}
""", iters="t, i"),
    K("heat-3d", "stencils", "7-point heat equation in 3-D, alternating between A and B.",
      [("T", 20, 3, "2..100"), ("N", 120, 11, "16..200")],
      [("A", ["N", "N", "N"], True), ("B", ["N", "N", "N"], True)], """
for (t = 0; t < T; t++) {
  for (i = 1; i < N - 1; i++)
    for (j = 1; j < N - 1; j++)
      for (k = 1; k < N - 1; k++)
        B[i][j][k] = 0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k])
                   + 0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k])
                   + 0.125 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1]) + A[i][j][k];
  for (i = 1; i < N - 1; i++)
    for (j = 1; j < N - 1; j++)
      for (k = 1; k < N - 1; k++)
        A[i][j][k] = 0.125 * (B[i + 1][j][k] - 2.0 * B[i][j][k] + B[i - 1][j][k])
                   + 0.125 * (B[i][j + 1][k] - 2.0 * B[i][j][k] + B[i][j - 1][k])
                   + 0.125 * (B[i][j][k + 1] - 2.0 * B[i][j][k] + B[i][j][k - 1]) + B[i][j][k];
}
""", iters="t, i, j, k"),
    K("fdtd-2d", "stencils", "2-D finite-difference time domain: the E fields from H, then H from E, with a source row.",
      [("T", 100, 4, "4..200"), ("NX", 1000, 37, "32..2048"), ("NY", 1200, 41, "32..2048")],
      [("ex", ["NX", "NY"], True), ("ey", ["NX", "NY"], True), ("hz", ["NX", "NY"], True),
       ("src", ["T"], False)], """
for (t = 0; t < T; t++) {
  for (j = 0; j < NY; j++)
    ey[0][j] = src[t];
  for (i = 1; i < NX; i++)
    for (j = 0; j < NY; j++)
      ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
  for (i = 0; i < NX; i++)
    for (j = 1; j < NY; j++)
      ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
  for (i = 0; i < NX - 1; i++)
    for (j = 0; j < NY - 1; j++)
      hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
}
""", iters="t, i, j"),
    K("blur-2d", "stencils", "One out-of-place 3x3 box blur of an image (no time loop: tiles without skewing).",
      [("H", 2000, 37, "64..8192"), ("W", 2000, 41, "64..8192")],
      [("out", ["H", "W"], True), ("in", ["H + 2", "W + 2"], False)], """
for (i = 0; i < H; i++)
  for (j = 0; j < W; j++)
    out[i][j] = (in[i][j] + in[i][j + 1] + in[i][j + 2] + in[i + 1][j] + in[i + 1][j + 1] + in[i + 1][j + 2]
               + in[i + 2][j] + in[i + 2][j + 1] + in[i + 2][j + 2]) / 9.0;
""", iters="i, j"),
    # Single precision: the vector holds twice the elements.
    K("sgemm", "blas", "C += alpha * A * B in single precision (PolyBench's order i, j, k).",
      MNK, [("C", ["NI", "NJ"], True), ("A", ["NI", "NK"], False), ("B", ["NK", "NJ"], False)], """
for (i = 0; i < NI; i++)
  for (j = 0; j < NJ; j++)
    for (k = 0; k < NK; k++)
      C[i][j] += alpha * A[i][k] * B[k][j];
""", scalars=["alpha"], dtype="float"),
    K("sjacobi-2d", "stencils", "5-point Jacobi sweeps in single precision, alternating between A and B.",
      [("T", 100, 5, "4..200"), ("N", 1300, 39, "32..2048")],
      [("A", ["N", "N"], True), ("B", ["N", "N"], True)], """
for (t = 0; t < T; t++) {
  for (i = 1; i < N - 1; i++)
    for (j = 1; j < N - 1; j++)
      B[i][j] = 0.2f * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j]);
  for (i = 1; i < N - 1; i++)
    for (j = 1; j < N - 1; j++)
      A[i][j] = 0.2f * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i + 1][j] + B[i - 1][j]);
}
""", iters="t, i, j", dtype="float"),
]

# Recurrences along the innermost loop: each statement reads what the previous
# iteration of its innermost loop wrote, so gcc cannot vectorise the loops as
# written (no other family has one); a tile's reordered or skewed point loops,
# and register tiles across the independent rows, can.
SPECS += [
    K("seidel-1d", "recur", "3-point Gauss-Seidel sweeps in place (each point reads its already updated left neighbour).",
      [("T", 200, 5, "4..512"), ("N", 20000, 41, "256..100000")],
      [("A", ["N"], True)], """
for (t = 0; t < T; t++)
  for (i = 1; i < N - 1; i++)
    A[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
""", iters="t, i"),
    K("seidel-3d", "recur", "7-point Gauss-Seidel sweeps in place over a volume.",
      [("T", 20, 3, "2..100"), ("N", 120, 11, "16..200")],
      [("A", ["N", "N", "N"], True)], """
for (t = 0; t < T; t++)
  for (i = 1; i < N - 1; i++)
    for (j = 1; j < N - 1; j++)
      for (k = 1; k < N - 1; k++)
        A[i][j][k] = (A[i - 1][j][k] + A[i][j - 1][k] + A[i][j][k - 1] + A[i][j][k]
                      + A[i][j][k + 1] + A[i][j + 1][k] + A[i + 1][j][k]) / 7.0;
""", iters="t, i, j, k"),
    K("iir-rows", "recur", "Second-order recursive (IIR) filter along the rows of a batch of images: y[j] = 0.5 x[j] + 0.3 x[j-1] + 0.6 y[j-1] - 0.2 y[j-2].",
      [("NB", 8, 3, "1..64"), ("H", 512, 13, "16..2048"), ("W", 512, 17, "16..2048")],
      [("Y", ["NB", "H", "W"], True), ("X", ["NB", "H", "W"], False)], """
for (b = 0; b < NB; b++)
  for (i = 0; i < H; i++)
    for (j = 2; j < W; j++)
      Y[b][i][j] = 0.5 * X[b][i][j] + 0.3 * X[b][i][j - 1] + 0.6 * Y[b][i][j - 1] - 0.2 * Y[b][i][j - 2];
""", iters="b, i, j"),
    K("sat-2d", "recur", "Summed-area table in place: S[i][j] += S[i-1][j] + S[i][j-1] - S[i-1][j-1].",
      [("H", 2000, 37, "64..8192"), ("W", 2000, 41, "64..8192")],
      [("S", ["H", "W"], True)], """
for (i = 1; i < H; i++)
  for (j = 1; j < W; j++)
    S[i][j] = S[i][j] + S[i - 1][j] + S[i][j - 1] - S[i - 1][j - 1];
""", iters="i, j"),
    K("tridiag-rows", "recur", "Elimination along every row of a tridiagonal-like system, forward then backward (Thomas' two sweeps with constant coefficients).",
      [("M", 2000, 37, "64..8192"), ("N", 2000, 41, "64..8192")],
      [("D", ["M", "N"], True)], """
for (i = 0; i < M; i++)
  for (j = 1; j < N; j++)
    D[i][j] = D[i][j] - 0.3 * D[i][j - 1];
for (i = 0; i < M; i++)
  for (j = 0; j < N - 1; j++)
    D[i][N - 2 - j] = 0.8 * (D[i][N - 2 - j] - 0.3 * D[i][N - 1 - j]);
""", iters="i, j"),
    K("sfilter-cols", "recur", "Recursive smoothing of a batch of single-precision images down the columns and along the rows at once: y[i][j] = 0.4 y[i-1][j] + 0.3 x[i][j] + 0.5 y[i][j-1].",
      [("NB", 8, 3, "1..64"), ("H", 512, 13, "16..2048"), ("W", 512, 17, "16..2048")],
      [("Y", ["NB", "H", "W"], True), ("X", ["NB", "H", "W"], False)], """
for (b = 0; b < NB; b++)
  for (i = 1; i < H; i++)
    for (j = 1; j < W; j++)
      Y[b][i][j] = 0.4f * Y[b][i - 1][j] + 0.3f * X[b][i][j] + 0.5f * Y[b][i][j - 1];
""", iters="b, i, j", dtype="float"),
]


def in_float(name, spec_name, doc):
    """A `float` copy of the spec named `spec_name`: the vector holds twice the elements."""
    base = next(k for k in SPECS if k["name"] == spec_name)
    return dict(base, name=name, doc=doc, dtype="float")


SPECS.append(in_float("sconv2d-nchw", "conv2d-nchw", "2-D convolution, channels first, in single precision."))


# More shapes to train on (session 76): loop orders, precisions, batched and
# triangular level-2 updates, strided and transposed reads that no family
# above has. Chosen after looking at where the models failed on
# `corpus/fresh` (its batched level-2 and single-precision kernels), so from
# then on `corpus/fresh2` is the clean test of kernels no model saw.
SPECS += [
    K("gemm-ijk", "variants", "C += A * B in double precision, order i, j, k (each element a dot product down a column of B).",
      MNK, [("C", ["NI", "NJ"], True), ("A", ["NI", "NK"], False), ("B", ["NK", "NJ"], False)], """
for (i = 0; i < NI; i++)
  for (j = 0; j < NJ; j++)
    for (k = 0; k < NK; k++)
      C[i][j] += A[i][k] * B[k][j];
"""),
    K("gemm-jik", "variants", "C += A * B in loop order j, i, k (dot products, C walked by columns).",
      MNK, [("C", ["NI", "NJ"], True), ("A", ["NI", "NK"], False), ("B", ["NK", "NJ"], False)], """
for (j = 0; j < NJ; j++)
  for (i = 0; i < NI; i++)
    for (k = 0; k < NK; k++)
      C[i][j] += A[i][k] * B[k][j];
"""),
    K("gemm-kji", "variants", "C += A * B in loop order k, j, i (rank-1 updates walked by columns: strided innermost).",
      MNK, [("C", ["NI", "NJ"], True), ("A", ["NI", "NK"], False), ("B", ["NK", "NJ"], False)], """
for (k = 0; k < NK; k++)
  for (j = 0; j < NJ; j++)
    for (i = 0; i < NI; i++)
      C[i][j] += A[i][k] * B[k][j];
"""),
    K("sgemm-nt", "variants", "C += A * B^T in single precision with B stored J x K (dot products of rows).",
      MNK, [("C", ["NI", "NJ"], True), ("A", ["NI", "NK"], False), ("B", ["NJ", "NK"], False)], """
for (i = 0; i < NI; i++)
  for (j = 0; j < NJ; j++)
    for (k = 0; k < NK; k++)
      C[i][j] += A[i][k] * B[j][k];
""", dtype="float"),
    K("sgemv-t", "variants", "y += A^T * x in single precision, order i, j.", MN,
      [("y", ["N"], True), ("A", ["M", "N"], False), ("x", ["M"], False)], """
for (i = 0; i < M; i++)
  for (j = 0; j < N; j++)
    y[j] += A[i][j] * x[i];
""", iters="i, j", dtype="float"),
    K("batched-ger", "variants", "A[b] += x[b] y[b]^T: a batch of independent rank-1 updates.",
      BATCHED_MN,
      [("A", ["NB", "NI", "NJ"], True), ("x", ["NB", "NI"], False), ("y", ["NB", "NJ"], False)], """
for (b = 0; b < NB; b++)
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      A[b][i][j] += x[b][i] * y[b][j];
""", iters="b, i, j"),
    K("batched-matmul-nt", "variants", "C[b] += A[b] * B[b]^T, B[b] stored J x K, order b, i, j, k.",
      BATCHED_MNK,
      [("C", ["NB", "NI", "NJ"], True), ("A", ["NB", "NI", "NK"], False), ("B", ["NB", "NJ", "NK"], False)], """
for (b = 0; b < NB; b++)
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      for (k = 0; k < NK; k++)
        C[b][i][j] += A[b][i][k] * B[b][j][k];
""", iters="b, i, j, k"),
    K("trmm-lower-oop", "variants", "C += L * B out of place, L lower triangular, order i, k, j.",
      [("M", 1000, 33, "32..2048"), ("N", 1100, 39, "32..2048")],
      [("C", ["M", "N"], True), ("L", ["M", "M"], False), ("B", ["M", "N"], False)], """
for (i = 0; i < M; i++)
  for (k = 0; k <= i; k++)
    for (j = 0; j < N; j++)
      C[i][j] += L[i][k] * B[k][j];
"""),
    K("syr-lower", "variants", "Symmetric rank-1 update of a lower triangle: A[i][j] += alpha * x[i] * x[j], j <= i.",
      [("N", 3000, 41, "64..8192")],
      [("A", ["N", "N"], True), ("x", ["N"], False)], """
for (i = 0; i < N; i++)
  for (j = 0; j <= i; j++)
    A[i][j] += alpha * x[i] * x[j];
""", scalars=["alpha"], iters="i, j"),
    K("conv2d-kcyx", "variants", "2-D convolution, channels first, window loops innermost: order k, c, y, x, r, s.",
      CONV2D, CONV2D_CHANNELS_FIRST, """
for (k = 0; k < K; k++)
  for (c = 0; c < C; c++)
    for (y = 0; y < H; y++)
      for (x = 0; x < W; x++)
        for (r = 0; r < R; r++)
          for (s = 0; s < S; s++)
            out[k][y][x] += w[k][c][r][s] * in[c][y + r][x + s];
""", iters="k, c, r, s, y, x"),
    K("avgpool-2x2", "variants", "2x2 average pooling with stride 2 over channels: reads of stride 2.",
      [("C", 64, 3, "1..512"), ("H", 256, 9, "8..1024"), ("W", 256, 11, "8..1024")],
      [("out", ["C", "H", "W"], True), ("in", ["C", "2 * H", "2 * W"], False)], """
for (c = 0; c < C; c++)
  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++)
      out[c][y][x] += 0.25 * (in[c][2 * y][2 * x] + in[c][2 * y][2 * x + 1] + in[c][2 * y + 1][2 * x]
                              + in[c][2 * y + 1][2 * x + 1]);
""", iters="c, y, x"),
    K("transpose-add", "variants", "B += A^T: a transposed read of one matrix into another (tiling's textbook case).",
      MN, [("B", ["M", "N"], True), ("A", ["N", "M"], False)], """
for (i = 0; i < M; i++)
  for (j = 0; j < N; j++)
    B[i][j] += A[j][i];
""", iters="i, j"),
    K("kmeans-dist", "variants", "Squared distances of N points to K centres in D dimensions: D2[i][c] += (X[i][d] - Cn[c][d])^2.",
      [("N", 2000, 37, "64..8192"), ("KC", 64, 5, "4..512"), ("DIM", 64, 7, "4..512")],
      [("D2", ["N", "KC"], True), ("X", ["N", "DIM"], False), ("Cn", ["KC", "DIM"], False)], """
for (i = 0; i < N; i++)
  for (c = 0; c < KC; c++)
    for (d = 0; d < DIM; d++)
      D2[i][c] += (X[i][d] - Cn[c][d]) * (X[i][d] - Cn[c][d]);
""", iters="i, c, d"),
    K("jacobi-2d", "variants", "5-point Jacobi sweeps in double precision, alternating between A and B.",
      [("T", 100, 5, "4..200"), ("N", 1300, 39, "32..2048")],
      [("A", ["N", "N"], True), ("B", ["N", "N"], True)], """
for (t = 0; t < T; t++) {
  for (i = 1; i < N - 1; i++)
    for (j = 1; j < N - 1; j++)
      B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j]);
  for (i = 1; i < N - 1; i++)
    for (j = 1; j < N - 1; j++)
      A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i + 1][j] + B[i - 1][j]);
}
""", iters="t, i, j"),
    K("smttkrp", "variants", "Single-precision MTTKRP in order i, j, k, l (the output's column loop outside the reduction).",
      MTTKRP,
      [("A", ["NI", "NJ"], True), ("X", ["NI", "NK", "NL"], False), ("C", ["NK", "NJ"], False),
       ("D", ["NL", "NJ"], False)], """
for (i = 0; i < NI; i++)
  for (j = 0; j < NJ; j++)
    for (k = 0; k < NK; k++)
      for (l = 0; l < NL; l++)
        A[i][j] += X[i][k][l] * C[k][j] * D[l][j];
""", iters="i, j, k, l", dtype="float"),
    K("dense-grad-w", "variants", "A dense layer's weight gradient: dw[o][i] += dy[b][o] * x[b][i], reduction over the batch innermost.",
      [("NB", 64, 5, "1..512"), ("NO", 1024, 37, "16..4096"), ("NIN", 1024, 29, "16..4096")],
      [("dw", ["NO", "NIN"], True), ("dy", ["NB", "NO"], False), ("x", ["NB", "NIN"], False)], """
for (o = 0; o < NO; o++)
  for (i = 0; i < NIN; i++)
    for (b = 0; b < NB; b++)
      dw[o][i] += dy[b][o] * x[b][i];
""", iters="b, o, i"),
]


# Kernels no model was trained on (session 65): every shipped model and every
# stored training row predates them, so `corpus/fresh` is a test of the
# models on code they never saw, as a user's kernel is. Keep it out of the
# training steps of scripts/collect-corpus.sh.
SPECS += [
    K("gemm-kij", "fresh", "C += A * B in loop order k, i, j (a rank-1 update per step of k).",
      MNK, [("C", ["NI", "NJ"], True), ("A", ["NI", "NK"], False), ("B", ["NK", "NJ"], False)], """
for (k = 0; k < NK; k++)
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      C[i][j] += A[i][k] * B[k][j];
"""),
    K("syr2k-lower", "fresh", "Lower triangle of C += A * B^T + B * A^T, order i, j, k (two dot products of rows).",
      [("N", 1000, 39, "32..2048"), ("M", 900, 33, "32..2048")],
      [("C", ["N", "N"], True), ("A", ["N", "M"], False), ("B", ["N", "M"], False)], """
for (i = 0; i < N; i++)
  for (j = 0; j <= i; j++)
    for (k = 0; k < M; k++)
      C[i][j] += A[i][k] * B[j][k] + B[i][k] * A[j][k];
"""),
    K("syrk-gram-lower", "fresh", "Lower triangle of C += A^T * A with A stored K x N, order k, i, j (rank-1 updates of a triangle).",
      [("N", 1000, 39, "32..2048"), ("M", 900, 33, "32..2048")],
      [("C", ["N", "N"], True), ("A", ["M", "N"], False)], """
for (k = 0; k < M; k++)
  for (i = 0; i < N; i++)
    for (j = 0; j <= i; j++)
      C[i][j] += A[k][i] * A[k][j];
"""),
    K("batched-gemv", "fresh", "y[b] += A[b] * x[b] for a batch of independent matrix-vector products.",
      BATCHED_MN,
      [("y", ["NB", "NI"], True), ("A", ["NB", "NI", "NJ"], False), ("x", ["NB", "NJ"], False)], """
for (b = 0; b < NB; b++)
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      y[b][i] += A[b][i][j] * x[b][j];
""", iters="b, i, j"),
    K("attention", "fresh", "One attention head without the softmax: S = Q K^T, then O += S V (two products through S).",
      [("NQ", 512, 13, "16..2048"), ("NKV", 512, 17, "16..2048"), ("D", 64, 7, "8..256")],
      [("O", ["NQ", "D"], True), ("S", ["NQ", "NKV"], True), ("Q", ["NQ", "D"], False),
       ("Kt", ["NKV", "D"], False), ("V", ["NKV", "D"], False)], """
for (i = 0; i < NQ; i++)
  for (j = 0; j < NKV; j++)
    for (d = 0; d < D; d++)
      S[i][j] += Q[i][d] * Kt[j][d];
for (i = 0; i < NQ; i++)
  for (j = 0; j < NKV; j++)
    for (d = 0; d < D; d++)
      O[i][d] += S[i][j] * V[j][d];
""", iters="i, j, d"),
    K("sdense-layer-t", "fresh", "Fully connected layer in single precision, weights stored in x out: out[b][o] += x[b][i] * w[i][o].",
      [("NB", 64, 5, "1..512"), ("NO", 1024, 37, "16..4096"), ("NIN", 1024, 29, "16..4096")],
      [("out", ["NB", "NO"], True), ("x", ["NB", "NIN"], False), ("w", ["NIN", "NO"], False)], """
for (b = 0; b < NB; b++)
  for (i = 0; i < NIN; i++)
    for (o = 0; o < NO; o++)
      out[b][o] += x[b][i] * w[i][o];
""", iters="b, o, i", dtype="float"),
    K("conv2d-out-first", "fresh", "2-D convolution, channels first, output loops outside: out[k][y][x] += w[k][c][r][s] * in[c][y+r][x+s], order k, y, x, c, r, s.",
      CONV2D, CONV2D_CHANNELS_FIRST, """
for (k = 0; k < K; k++)
  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++)
      for (c = 0; c < C; c++)
        for (r = 0; r < R; r++)
          for (s = 0; s < S; s++)
            out[k][y][x] += w[k][c][r][s] * in[c][y + r][x + s];
""", iters="k, c, r, s, y, x"),
    K("ttm-mode2", "fresh", "Tensor-times-matrix along the middle mode: Y[i][k][j] += U[k][l] * X[i][l][j].",
      [("NI", 64, 5, "4..256"), ("NJ", 128, 7, "8..512"), ("NK", 128, 9, "8..512"), ("NL", 128, 11, "8..512")],
      [("Y", ["NI", "NK", "NJ"], True), ("X", ["NI", "NL", "NJ"], False), ("U", ["NK", "NL"], False)], """
for (i = 0; i < NI; i++)
  for (k = 0; k < NK; k++)
    for (l = 0; l < NL; l++)
      for (j = 0; j < NJ; j++)
        Y[i][k][j] += U[k][l] * X[i][l][j];
""", iters="i, j, k, l"),
    K("seidel-2d", "fresh", "9-point Gauss-Seidel sweeps in place (each point reads its already updated upper and left neighbours).",
      [("T", 40, 4, "2..100"), ("N", 1000, 37, "32..2048")],
      [("A", ["N", "N"], True)], """
for (t = 0; t < T; t++)
  for (i = 1; i < N - 1; i++)
    for (j = 1; j < N - 1; j++)
      A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1] + A[i][j - 1] + A[i][j] + A[i][j + 1]
                 + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / 9.0;
""", iters="t, i, j"),
    K("sbmm-tn", "fresh", "Batched C[b] += A[b]^T * B[b] in single precision, A[b] stored K x I.",
      BATCHED_MNK,
      [("C", ["NB", "NI", "NJ"], True), ("A", ["NB", "NK", "NI"], False), ("B", ["NB", "NK", "NJ"], False)], """
for (b = 0; b < NB; b++)
  for (k = 0; k < NK; k++)
    for (i = 0; i < NI; i++)
      for (j = 0; j < NJ; j++)
        C[b][i][j] += A[b][k][i] * B[b][k][j];
""", iters="b, i, j, k", dtype="float"),
]


# A second set of kernels no model was trained on (session 76), written
# before any model saw a `corpus/variants` row: the clean test for models
# trained with them. Keep it out of every training step.
SPECS += [
    K("symv-upper", "fresh2", "y += A x with only A's upper triangle stored: each stored element used twice.",
      [("N", 3000, 41, "64..8192")],
      [("y", ["N"], True), ("A", ["N", "N"], False), ("x", ["N"], False)], """
for (i = 0; i < N; i++)
  for (j = i; j < N; j++) {
    y[i] += A[i][j] * x[j];
    y[j] += A[i][j] * x[i];
  }
""", iters="i, j"),
    K("batched-conv1d", "fresh2", "1-D convolution over a batch: out[b][k][x] += w[k][c][r] * in[b][c][x+r].",
      [("NB", 8, 2, "1..64"), ("K", 64, 5, "4..256"), ("C", 64, 3, "1..256"), ("W", 512, 37, "16..2048"),
       ("R", 5, 3, "1..15")],
      [("out", ["NB", "K", "W"], True), ("w", ["K", "C", "R"], False), ("in", ["NB", "C", "W + R - 1"], False)], """
for (b = 0; b < NB; b++)
  for (k = 0; k < K; k++)
    for (c = 0; c < C; c++)
      for (r = 0; r < R; r++)
        for (x = 0; x < W; x++)
          out[b][k][x] += w[k][c][r] * in[b][c][x + r];
""", iters="b, k, c, r, x"),
    K("three-mm", "fresh2", "G = (A B)(C D): three products through two temporaries.",
      [("NI", 400, 37, "32..1024"), ("NJ", 450, 41, "32..1024"), ("NK", 500, 29, "32..1024"),
       ("NL", 550, 23, "32..1024"), ("NM", 600, 19, "32..1024")],
      [("G", ["NI", "NL"], True), ("E", ["NI", "NJ"], True), ("F", ["NJ", "NL"], True), ("A", ["NI", "NK"], False),
       ("B", ["NK", "NJ"], False), ("C", ["NJ", "NM"], False), ("D", ["NM", "NL"], False)], """
for (i = 0; i < NI; i++)
  for (j = 0; j < NJ; j++)
    for (k = 0; k < NK; k++)
      E[i][j] += A[i][k] * B[k][j];
for (i = 0; i < NJ; i++)
  for (j = 0; j < NL; j++)
    for (k = 0; k < NM; k++)
      F[i][j] += C[i][k] * D[k][j];
for (i = 0; i < NI; i++)
  for (j = 0; j < NL; j++)
    for (k = 0; k < NJ; k++)
      G[i][j] += E[i][k] * F[k][j];
"""),
    K("jacobi-2d-9pt", "fresh2", "9-point Jacobi sweeps in double precision, alternating between A and B.",
      [("T", 40, 4, "2..100"), ("N", 1000, 37, "32..2048")],
      [("A", ["N", "N"], True), ("B", ["N", "N"], True)], """
for (t = 0; t < T; t++) {
  for (i = 1; i < N - 1; i++)
    for (j = 1; j < N - 1; j++)
      B[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1] + A[i][j - 1] + A[i][j] + A[i][j + 1]
                 + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / 9.0;
  for (i = 1; i < N - 1; i++)
    for (j = 1; j < N - 1; j++)
      A[i][j] = B[i][j];
}
""", iters="t, i, j"),
    K("mttkrp-mode2", "fresh2", "MTTKRP along the second mode: M[j][r] += X[i][j][k] * B[i][r] * C[k][r], order j, i, k, r.",
      [("NI", 128, 7, "8..512"), ("NJ", 128, 9, "8..512"), ("NK", 128, 5, "8..512"), ("NR", 32, 11, "4..256")],
      [("M", ["NJ", "NR"], True), ("X", ["NI", "NJ", "NK"], False), ("B", ["NI", "NR"], False),
       ("C", ["NK", "NR"], False)], """
for (j = 0; j < NJ; j++)
  for (i = 0; i < NI; i++)
    for (k = 0; k < NK; k++)
      for (r = 0; r < NR; r++)
        M[j][r] += X[i][j][k] * B[i][r] * C[k][r];
""", iters="i, j, k, r"),
    K("strmm-right", "fresh2", "C += B * U in single precision, U upper triangular, order i, j, k (k <= j).",
      [("M", 1000, 33, "32..2048"), ("N", 1100, 39, "32..2048")],
      [("C", ["M", "N"], True), ("B", ["M", "N"], False), ("U", ["N", "N"], False)], """
for (i = 0; i < M; i++)
  for (j = 0; j < N; j++)
    for (k = 0; k <= j; k++)
      C[i][j] += B[i][k] * U[k][j];
""", dtype="float"),
    K("sdepthwise-nhwc", "fresh2", "Depthwise 2-D convolution, channels last, single precision: out[y][x][c] += in[y+r][x+s][c] * w[r][s][c].",
      [("C", 64, 3, "1..512"), ("H", 112, 9, "8..224"), ("W", 112, 11, "8..224"), ("R", 3, 3, "1..7"),
       ("S", 3, 2, "1..7")],
      [("out", ["H", "W", "C"], True), ("in", ["H + R - 1", "W + S - 1", "C"], False), ("w", ["R", "S", "C"], False)], """
for (y = 0; y < H; y++)
  for (x = 0; x < W; x++)
    for (r = 0; r < R; r++)
      for (s = 0; s < S; s++)
        for (c = 0; c < C; c++)
          out[y][x][c] += in[y + r][x + s][c] * w[r][s][c];
""", iters="c, y, x, r, s", dtype="float"),
    K("contraction-3d", "fresh2", "C[a][b][c] += A[a][d][c] * B[b][d]: a three-index result contracted over d, order a, b, d, c.",
      [("NA", 64, 5, "4..256"), ("NB", 64, 7, "4..256"), ("NC", 64, 9, "4..256"), ("ND", 64, 11, "4..256")],
      [("C", ["NA", "NB", "NC"], True), ("A", ["NA", "ND", "NC"], False), ("B", ["NB", "ND"], False)], """
for (a = 0; a < NA; a++)
  for (b = 0; b < NB; b++)
    for (d = 0; d < ND; d++)
      for (c = 0; c < NC; c++)
        C[a][b][c] += A[a][d][c] * B[b][d];
""", iters="a, b, c, d"),
]


# Random affine nests: loop orders, access patterns and shapes no hand-written
# kernel has, so that leave-family-out evaluation can ask whether more kinds
# of kernels teach the model more than more sizes of the same ones.
RANDOM_NESTS = 80
RANDOM_ITERS = ["i", "j", "k", "l"]
RANDOM_PARAMS = ["NI", "NJ", "NK", "NL"]
# Per depth: size range, default size, and small odd sizes for the tests.
RANDOM_SIZES = {2: ("64..4096", 2000), 3: ("16..2048", 400), 4: ("8..512", 90)}
RANDOM_SMALL = [37, 29, 23, 19]


class Nest:
    """One random nest's arrays and text, built by `random_nest`."""

    def __init__(self, rng, depth):
        self.rng, self.depth = rng, depth
        self.iters = RANDOM_ITERS[:depth]
        self.arrays = []  # (name, [dims], output?)
        self.names = iter(["A", "B", "C", "D", "E", "F", "G", "H"])

    def extent(self, it, pad):
        p = RANDOM_PARAMS[self.iters.index(it)]
        return f"{p} + {pad}" if pad else p

    def array(self, subs, shifts, output):
        """A fresh array indexed by `subs` (iterators) shifted by `shifts`."""
        name = next(self.names)
        self.arrays.append((name, [self.extent(it, sh) for it, sh in zip(subs, shifts)], output))
        return name + "".join(f"[{it} + {sh}]" if sh else f"[{it}]" for it, sh in zip(subs, shifts))

    def subscripts(self, rank, shift):
        subs = self.rng.sample(self.iters, rank)
        shifts = [self.rng.choice([0, 0, 1, 2]) if shift else 0 for _ in subs]
        return subs, shifts

    def statement(self):
        """`OUT[..] += w * IN[..] * IN[..]` (a contraction, maybe transposed)
        or `OUT[..] = OUT[..] + w * IN[..] ...` over shifted reads (a
        stencil-like map). Arrays have rank 1 or 2, so that no array of a
        3e8-instance nest outgrows memory (3-D ones are in corpus/tensor)."""
        r = self.rng
        if r.random() < 0.75:
            out = self.array(*self.subscripts(r.choice([1, 2, 2]), False), True)
            reads = [self.array(*self.subscripts(r.choice([1, 2, 2]), False), False)
                     for _ in range(r.choice([1, 2, 2]))]
            return f"{out} += {r.choice(['0.5', '1.5', '0.25'])} * {' * '.join(reads)};"
        out = self.array(self.rng.sample(self.iters, 2), [0, 0], True)
        reads = [self.array(*self.subscripts(r.choice([1, 2]), True), False)
                 for _ in range(r.choice([1, 2]))]
        taps = [f"{w} * {a}" for a in reads for w in [r.choice(["0.2", "0.3", "0.1"])]]
        return f"{out} = {out} + {' + '.join(taps)};"

    def used(self, text):
        missing = [it for it in self.iters if f"[{it}" not in text]
        return not missing


def random_nest(n):
    """Random kernel `n` (a seeded function of `n`): a perfect nest of depth
    2-4 in a random loop order, one or two statements, maybe a triangular
    loop, maybe a second nest that reads the first one's output."""
    rng = __import__("random").Random(9000 + n)
    while True:
        depth = rng.choice([2, 3, 3, 3, 4])
        nest = Nest(rng, depth)
        body = [nest.statement() for _ in range(rng.choice([1, 1, 2]))]
        if nest.used(" ".join(body)):
            break
    order = rng.sample(nest.iters, depth)
    triangular = depth >= 2 and rng.random() < 0.25
    lines = []
    for d, it in enumerate(order):
        p = RANDOM_PARAMS[nest.iters.index(it)]
        lo = order[d - 1] if triangular and d == 1 else "0"
        if triangular and d == 1:
            lines.append("  " * d + f"for ({it} = {lo}; {it} < {p}; {it}++)")
        else:
            lines.append("  " * d + f"for ({it} = 0; {it} < {p}; {it}++)")
    if len(body) > 1:
        lines[-1] += " {"
        lines += ["  " * depth + b for b in body] + ["  " * (depth - 1) + "}"]
    else:
        lines.append("  " * depth + body[0])
    if rng.random() < 0.3:
        # A second nest over the first output's dimensions scales it by
        # another array: a producer-consumer pair like atax or 2mm.
        name, dims, _ = nest.arrays[0]
        its = [nest.iters[RANDOM_PARAMS.index(d)] for d in dims]
        ref = name + "".join(f"[{it}]" for it in its)
        scale = nest.array(list(reversed(its)), [0] * len(its), True)
        for d, it in enumerate(its):
            lines.append("  " * d + f"for ({it} = 0; {it} < {dims[d]}; {it}++)")
        lines.append("  " * len(its) + f"{scale} += 0.5 * {ref};")
    rng_range, default = RANDOM_SIZES[depth]
    params = [(p, default, RANDOM_SMALL[d], rng_range) for d, p in enumerate(RANDOM_PARAMS[:depth])]
    dtype = rng.choice(["double", "double", "double", "float"])
    what = f"depth {depth}, order {', '.join(order)}" + (", triangular" if triangular else "")
    return K(f"rand-{n:02d}", "random", f"Random affine nest {n} ({what}, {dtype}).", params, nest.arrays,
             "\n".join(lines), dtype=dtype, iters=", ".join(nest.iters))


SPECS += [random_nest(n) for n in range(RANDOM_NESTS)]


def ident(name):
    return name.replace("-", "_")


def elements(dims):
    return " * ".join(f"({d})" if "+" in d or "-" in d else d for d in dims)


def render(k):
    dt = "DATA_TYPE"
    lines = [f"/* {k['name']}: {k['doc']}", " *",
             " * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).",
             " * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`",
             " * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd",
             " * ones), and -DCORPUS_DUMP prints the output arrays exactly.",
             " * tss-range: " + ", ".join(f"{p}={r}" for p, _, _, r in k["params"]) + " */"]
    if k["dtype"] == "float":
        lines.append("#define DATA_TYPE float")
    lines.append("#include <corpus.h>")
    lines.append("")
    lines.append("#ifdef TSS_SMALL")
    lines += [f"# define {p} {small}" for p, _, small, _ in k["params"]]
    lines.append("#endif")
    for p, default, _, _ in k["params"]:
        lines += [f"#ifndef {p}", f"# define {p} {default}", "#endif"]
    lines.append("")
    args = [f"{dt} {s}" for s in k["scalars"]]
    args += [f"{dt} {a}[restrict {dims[0]}]" + "".join(f"[{d}]" for d in dims[1:]) for a, dims, _ in k["arrays"]]
    lines.append(f"static void kernel_{ident(k['name'])}(" + ", ".join(args) + ")")
    lines.append("{")
    lines.append(f"  int {k['iters']};")
    lines.append("")
    lines.append("#pragma scop")
    lines += ["  " + l if l else l for l in k["scop"].split("\n")]
    lines.append("#pragma endscop")
    lines.append("}")
    lines.append("")
    lines.append("int main(void)")
    lines.append("{")
    for idx, (a, dims, _) in enumerate(k["arrays"]):
        ptr = f"(*{a})" + "".join(f"[{d}]" for d in dims[1:]) if len(dims) > 1 else f"*{a}"
        lines.append(f"  {dt} {ptr} = corpus_alloc((size_t) {elements(dims)}, sizeof({dt}));")
    for idx, (a, dims, _) in enumerate(k["arrays"]):
        first = a + "[0]" * (len(dims) - 1)
        lines.append(f"  corpus_init({'&' + first + '[0]' if len(dims) > 1 else a}, (size_t) {elements(dims)}, {idx});")
    call = [{"alpha": "1.5", "beta": "1.2"}[s] for s in k["scalars"]] + [a for a, _, _ in k["arrays"]]
    lines.append(f"  kernel_{ident(k['name'])}({', '.join(call)});")
    for a, dims, out in k["arrays"]:
        if out:
            first = "&" + a + "[0]" * (len(dims) - 1) + "[0]" if len(dims) > 1 else a
            lines.append(f"  corpus_dump(\"{a}\", {first}, (size_t) {elements(dims)});")
    for a, _, _ in k["arrays"]:
        lines.append(f"  free((void *) {a});")
    lines.append("  return 0;")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    check = "--check" in sys.argv[1:]
    stale = []
    for k in SPECS:
        path = ROOT / k["family"] / f"{k['name']}.c"
        text = render(k)
        if check:
            if not path.exists() or path.read_text() != text:
                stale.append(str(path))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
    if check and stale:
        print("corpus out of date (run scripts/corpus.py):", *stale, sep="\n  ")
        sys.exit(1)
    print(f"{len(SPECS)} kernels {'checked' if check else 'written'} in {ROOT}")


if __name__ == "__main__":
    main()
