/* trmm: trmm in the PolyBench/C 4.2.1 style: B := alpha*A^T*B with A unit lower triangular.
 *
 * Written for tss. The loop nest between '#pragma scop' and '#pragma endscop' is what
 * `tss tile` transforms; sizes are macros (-DM=...), and -DPOLYBENCH_DUMP_ARRAYS
 * prints the output arrays exactly. */
#include <math.h>
#include <polybench.h>

#ifndef M
# define M 1000
#endif
#ifndef N
# define N 1200
#endif
#define _PB_M POLYBENCH_LOOP_BOUND(M, m)
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

static void init_array(int m, int n, DATA_TYPE *alpha,
                       DATA_TYPE POLYBENCH_2D(B, M, N, m, n),
                       DATA_TYPE POLYBENCH_2D(A, M, M, m, m))
{
  int i, j;
  *alpha = 1.5;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++)
      B[i][j] = (DATA_TYPE) ((i * 2 + j * 3 + 1) % m) / m;
  for (i = 0; i < m; i++)
    for (j = 0; j < m; j++)
      A[i][j] = (DATA_TYPE) ((i * 3 + j * 4 + 1) % m) / m;
}

static void kernel_trmm(int m, int n, DATA_TYPE alpha,
                       DATA_TYPE POLYBENCH_2D(B, M, N, m, n),
                       DATA_TYPE POLYBENCH_2D(A, M, M, m, m))
{
  int i, j, k;

#pragma scop
  for (i = 0; i < _PB_M; i++)
    for (j = 0; j < _PB_N; j++) {
      for (k = i + 1; k < _PB_M; k++)
        B[i][j] += A[k][i] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
#pragma endscop
}

int main(void)
{
  DATA_TYPE alpha;
  POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, M, N, M, N);
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, M, M, M, M);

  init_array(M, N, &alpha, POLYBENCH_ARRAY(B), POLYBENCH_ARRAY(A));
  polybench_start_instruments;
  kernel_trmm(M, N, alpha, POLYBENCH_ARRAY(B), POLYBENCH_ARRAY(A));
  polybench_stop_instruments;
  polybench_print_instruments;

  POLYBENCH_DUMP_START;
  polybench_dump_2d("B", POLYBENCH_ARRAY(B), M, N);
  POLYBENCH_DUMP_FINISH;
  POLYBENCH_FREE_ARRAY(B);
  POLYBENCH_FREE_ARRAY(A);
  return 0;
}
