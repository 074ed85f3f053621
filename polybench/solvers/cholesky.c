/* cholesky: Cholesky decomposition A = L*L^T of a symmetric positive definite matrix, L in the lower triangle.
 *
 * Written for tss in the PolyBench/C 4.2.1 style. The matrix is initialised symmetric and
 * strictly diagonally dominant (so positive definite), which keeps the factorisation finite.
 * Sizes are macros (-DN=...); -DPOLYBENCH_DUMP_ARRAYS prints the result exactly. */
#include <math.h>
#include <polybench.h>

#ifndef N
# define N 2000
#endif
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

static void init_array(int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
  int i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = (i == j) ? 2.0 : (DATA_TYPE) ((i + j) % n) / ((DATA_TYPE) n * n);
}

static void kernel_cholesky(int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
  int i, j, k;

#pragma scop
  for (i = 0; i < _PB_N; i++) {
    for (j = 0; j < i; j++) {
      for (k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[j][k];
      A[i][j] /= A[j][j];
    }
    for (k = 0; k < i; k++)
      A[i][i] -= A[i][k] * A[i][k];
    A[i][i] = SQRT_FUN(A[i][i]);
  }
#pragma endscop
}

int main(void)
{
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, N, N, N);

  init_array(N, POLYBENCH_ARRAY(A));
  polybench_start_instruments;
  kernel_cholesky(N, POLYBENCH_ARRAY(A));
  polybench_stop_instruments;
  polybench_print_instruments;

  POLYBENCH_DUMP_START;
  polybench_dump_2d("A", POLYBENCH_ARRAY(A), N, N);
  POLYBENCH_DUMP_FINISH;
  POLYBENCH_FREE_ARRAY(A);
  return 0;
}
