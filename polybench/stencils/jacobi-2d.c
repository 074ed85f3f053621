/* jacobi-2d: jacobi-2d in the PolyBench/C 4.2.1 style: 5-point Jacobi sweeps alternating between A and B; tiling needs skewing.
 *
 * Written for tss. The loop nest between '#pragma scop' and '#pragma endscop' is what
 * `tss tile` transforms; sizes are macros (-DTSTEPS=...), and -DPOLYBENCH_DUMP_ARRAYS
 * prints the output arrays exactly. */
#include <math.h>
#include <polybench.h>

#ifndef TSTEPS
# define TSTEPS 500
#endif
#ifndef N
# define N 1300
#endif
#define _PB_TSTEPS POLYBENCH_LOOP_BOUND(TSTEPS, tsteps)
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

static void init_array(int tsteps, int n,
                       DATA_TYPE POLYBENCH_2D(A, N, N, n, n),
                       DATA_TYPE POLYBENCH_2D(B, N, N, n, n))
{
  int i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = (DATA_TYPE) ((i * 2 + j * 3 + 1) % n) / n;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      B[i][j] = (DATA_TYPE) ((i * 3 + j * 4 + 1) % n) / n;
}

static void kernel_jacobi_2d(int tsteps, int n,
                       DATA_TYPE POLYBENCH_2D(A, N, N, n, n),
                       DATA_TYPE POLYBENCH_2D(B, N, N, n, n))
{
  int t, i, j;

#pragma scop
  for (t = 0; t < _PB_TSTEPS; t++) {
    for (i = 1; i < _PB_N - 1; i++)
      for (j = 1; j < _PB_N - 1; j++)
        B[i][j] = SCALAR_VAL(0.2) * (A[i][j] + A[i][j-1] + A[i][1+j] + A[1+i][j] + A[i-1][j]);
    for (i = 1; i < _PB_N - 1; i++)
      for (j = 1; j < _PB_N - 1; j++)
        A[i][j] = SCALAR_VAL(0.2) * (B[i][j] + B[i][j-1] + B[i][1+j] + B[1+i][j] + B[i-1][j]);
  }
#pragma endscop
}

int main(void)
{
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, N, N, N);
  POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, N, N, N, N);

  init_array(TSTEPS, N, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
  polybench_start_instruments;
  kernel_jacobi_2d(TSTEPS, N, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
  polybench_stop_instruments;
  polybench_print_instruments;

  POLYBENCH_DUMP_START;
  polybench_dump_2d("A", POLYBENCH_ARRAY(A), N, N);
  polybench_dump_2d("B", POLYBENCH_ARRAY(B), N, N);
  POLYBENCH_DUMP_FINISH;
  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(B);
  return 0;
}
