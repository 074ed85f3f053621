/* seidel-2d: seidel-2d in the PolyBench/C 4.2.1 style: 9-point Gauss-Seidel sweeps in place; tiling needs skewing.
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
                       DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
  int i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = (DATA_TYPE) ((i * 2 + j * 3 + 1) % n) / n;
}

static void kernel_seidel_2d(int tsteps, int n,
                       DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
  int t, i, j;

#pragma scop
  for (t = 0; t <= _PB_TSTEPS - 1; t++)
    for (i = 1; i <= _PB_N - 2; i++)
      for (j = 1; j <= _PB_N - 2; j++)
        A[i][j] = (A[i-1][j-1] + A[i-1][j] + A[i-1][j+1]
                   + A[i][j-1] + A[i][j] + A[i][j+1]
                   + A[i+1][j-1] + A[i+1][j] + A[i+1][j+1]) / SCALAR_VAL(9.0);
#pragma endscop
}

int main(void)
{
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, N, N, N);

  init_array(TSTEPS, N, POLYBENCH_ARRAY(A));
  polybench_start_instruments;
  kernel_seidel_2d(TSTEPS, N, POLYBENCH_ARRAY(A));
  polybench_stop_instruments;
  polybench_print_instruments;

  POLYBENCH_DUMP_START;
  polybench_dump_2d("A", POLYBENCH_ARRAY(A), N, N);
  POLYBENCH_DUMP_FINISH;
  POLYBENCH_FREE_ARRAY(A);
  return 0;
}
