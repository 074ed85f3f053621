/* dsyrk: Dsyrk of the paper: rank-k update of the upper triangle of C. Loops: i and j start at 0, k starts at j.
 *
 * Written for tss. The loop nest between '#pragma scop' and '#pragma endscop' is what
 * `tss tile` transforms; sizes are macros (-DNI=...), and -DPOLYBENCH_DUMP_ARRAYS
 * prints the output arrays exactly. */
#include <math.h>
#include <polybench.h>

#ifndef NI
# define NI 1500
#endif
#ifndef NJ
# define NJ 1300
#endif
#define _PB_NI POLYBENCH_LOOP_BOUND(NI, ni)
#define _PB_NJ POLYBENCH_LOOP_BOUND(NJ, nj)

static void init_array(int ni, int nj, DATA_TYPE *alpha,
                       DATA_TYPE POLYBENCH_2D(C, NJ, NJ, nj, nj),
                       DATA_TYPE POLYBENCH_2D(A, NI, NJ, ni, nj))
{
  int i, j;
  *alpha = 1.5;
  for (i = 0; i < nj; i++)
    for (j = 0; j < nj; j++)
      C[i][j] = (DATA_TYPE) ((i * 2 + j * 3 + 1) % nj) / nj;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++)
      A[i][j] = (DATA_TYPE) ((i * 3 + j * 4 + 1) % ni) / ni;
}

static void kernel_dsyrk(int ni, int nj, DATA_TYPE alpha,
                       DATA_TYPE POLYBENCH_2D(C, NJ, NJ, nj, nj),
                       DATA_TYPE POLYBENCH_2D(A, NI, NJ, ni, nj))
{
  int i, j, k;

#pragma scop
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++)
      for (k = j; k < nj; k++)
        C[j][k] += alpha * A[i][j] * A[i][k];
#pragma endscop
}

int main(void)
{
  DATA_TYPE alpha;
  POLYBENCH_2D_ARRAY_DECL(C, DATA_TYPE, NJ, NJ, NJ, NJ);
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, NI, NJ, NI, NJ);

  init_array(NI, NJ, &alpha, POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(A));
  polybench_start_instruments;
  kernel_dsyrk(NI, NJ, alpha, POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(A));
  polybench_stop_instruments;
  polybench_print_instruments;

  POLYBENCH_DUMP_START;
  polybench_dump_2d("C", POLYBENCH_ARRAY(C), NJ, NJ);
  POLYBENCH_DUMP_FINISH;
  POLYBENCH_FREE_ARRAY(C);
  POLYBENCH_FREE_ARRAY(A);
  return 0;
}
