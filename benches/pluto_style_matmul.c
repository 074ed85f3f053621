/* Matmul tiled the way Pluto's `polycc --tile` emits it, written for tss's
 * benchmark: tile loops over tile *indices* t1, t2, t3 (scaled by the tile
 * size T inside the bounds), point loops i, k, j with `lbv`/`ubv` bounds and
 * `ivdep` on the stride-1 innermost loop. tss's output is compared against
 * this at the same tile size (-DT=...). Same driver as polybench/paper/matmul.c. */
#include <math.h>
#include <polybench.h>

#ifndef NI
# define NI 1500
#endif
#ifndef NJ
# define NJ 1300
#endif
#ifndef NK
# define NK 1100
#endif
#ifndef T
# define T 32
#endif
#define floord(n, d) (((n) < 0) ? -((-(n) + (d) - 1) / (d)) : (n) / (d))
#define min(x, y) ((x) < (y) ? (x) : (y))

static void init_array(int ni, int nj, int nk,
                       DATA_TYPE POLYBENCH_2D(C, NI, NJ, ni, nj),
                       DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                       DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj))
{
  int i, j;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++)
      C[i][j] = (DATA_TYPE) ((i * 2 + j * 3 + 1) % ni) / ni;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nk; j++)
      A[i][j] = (DATA_TYPE) ((i * 3 + j * 4 + 1) % ni) / ni;
  for (i = 0; i < nk; i++)
    for (j = 0; j < nj; j++)
      B[i][j] = (DATA_TYPE) ((i * 4 + j * 5 + 1) % nk) / nk;
}

static void kernel_matmul(int ni, int nj, int nk,
                          DATA_TYPE POLYBENCH_2D(C, NI, NJ, ni, nj),
                          DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                          DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj))
{
  int t1, t2, t3, i, k, j, lbv, ubv;
  for (t1 = 0; t1 <= floord(ni - 1, T); t1++)
    for (t2 = 0; t2 <= floord(nj - 1, T); t2++)
      for (t3 = 0; t3 <= floord(nk - 1, T); t3++)
        for (i = T * t1; i <= min(ni - 1, T * t1 + T - 1); i++)
          for (k = T * t3; k <= min(nk - 1, T * t3 + T - 1); k++) {
            lbv = T * t2;
            ubv = min(nj - 1, T * t2 + T - 1);
#pragma GCC ivdep
            for (j = lbv; j <= ubv; j++)
              C[i][j] += A[i][k] * B[k][j];
          }
}

int main(void)
{
  POLYBENCH_2D_ARRAY_DECL(C, DATA_TYPE, NI, NJ, NI, NJ);
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, NI, NK, NI, NK);
  POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, NK, NJ, NK, NJ);

  init_array(NI, NJ, NK, POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
  polybench_start_instruments;
  kernel_matmul(NI, NJ, NK, POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
  polybench_stop_instruments;
  polybench_print_instruments;

  POLYBENCH_DUMP_START;
  polybench_dump_2d("C", POLYBENCH_ARRAY(C), NI, NJ);
  POLYBENCH_DUMP_FINISH;
  POLYBENCH_FREE_ARRAY(C);
  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(B);
  return 0;
}
