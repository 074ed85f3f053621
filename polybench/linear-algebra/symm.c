/* symm: symm in the PolyBench/C 4.2.1 style: C := alpha*A*B + beta*C with A symmetric; the scalar temp2 carries a reduction.
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

static void init_array(int m, int n, DATA_TYPE *alpha, DATA_TYPE *beta,
                       DATA_TYPE POLYBENCH_2D(C, M, N, m, n),
                       DATA_TYPE POLYBENCH_2D(A, M, M, m, m),
                       DATA_TYPE POLYBENCH_2D(B, M, N, m, n))
{
  int i, j;
  *alpha = 1.5;
  *beta = 1.2;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++)
      C[i][j] = (DATA_TYPE) ((i * 2 + j * 3 + 1) % m) / m;
  for (i = 0; i < m; i++)
    for (j = 0; j < m; j++)
      A[i][j] = (DATA_TYPE) ((i * 3 + j * 4 + 1) % m) / m;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++)
      B[i][j] = (DATA_TYPE) ((i * 4 + j * 5 + 1) % m) / m;
}

static void kernel_symm(int m, int n, DATA_TYPE alpha, DATA_TYPE beta,
                       DATA_TYPE POLYBENCH_2D(C, M, N, m, n),
                       DATA_TYPE POLYBENCH_2D(A, M, M, m, m),
                       DATA_TYPE POLYBENCH_2D(B, M, N, m, n))
{
  int i, j, k;
  DATA_TYPE temp2;

#pragma scop
  for (i = 0; i < _PB_M; i++)
    for (j = 0; j < _PB_N; j++) {
      temp2 = 0;
      for (k = 0; k < i; k++) {
        C[k][j] += alpha * B[i][j] * A[i][k];
        temp2 += B[k][j] * A[i][k];
      }
      C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * temp2;
    }
#pragma endscop
}

int main(void)
{
  DATA_TYPE alpha;
  DATA_TYPE beta;
  POLYBENCH_2D_ARRAY_DECL(C, DATA_TYPE, M, N, M, N);
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, M, M, M, M);
  POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, M, N, M, N);

  init_array(M, N, &alpha, &beta, POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
  polybench_start_instruments;
  kernel_symm(M, N, alpha, beta, POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
  polybench_stop_instruments;
  polybench_print_instruments;

  POLYBENCH_DUMP_START;
  polybench_dump_2d("C", POLYBENCH_ARRAY(C), M, N);
  POLYBENCH_DUMP_FINISH;
  POLYBENCH_FREE_ARRAY(C);
  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(B);
  return 0;
}
