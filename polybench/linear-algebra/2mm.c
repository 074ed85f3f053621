/* 2mm: 2mm in the PolyBench/C 4.2.1 style: D := alpha*A*B*C + beta*D, two matrix products in sequence.
 *
 * Written for tss. The loop nest between '#pragma scop' and '#pragma endscop' is what
 * `tss tile` transforms; sizes are macros (-DNI=...), and -DPOLYBENCH_DUMP_ARRAYS
 * prints the output arrays exactly. */
#include <math.h>
#include <polybench.h>

#ifndef NI
# define NI 800
#endif
#ifndef NJ
# define NJ 900
#endif
#ifndef NK
# define NK 1100
#endif
#ifndef NL
# define NL 1200
#endif
#define _PB_NI POLYBENCH_LOOP_BOUND(NI, ni)
#define _PB_NJ POLYBENCH_LOOP_BOUND(NJ, nj)
#define _PB_NK POLYBENCH_LOOP_BOUND(NK, nk)
#define _PB_NL POLYBENCH_LOOP_BOUND(NL, nl)

static void init_array(int ni, int nj, int nk, int nl, DATA_TYPE *alpha, DATA_TYPE *beta,
                       DATA_TYPE POLYBENCH_2D(D, NI, NL, ni, nl),
                       DATA_TYPE POLYBENCH_2D(tmp, NI, NJ, ni, nj),
                       DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                       DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj),
                       DATA_TYPE POLYBENCH_2D(C, NJ, NL, nj, nl))
{
  int i, j;
  *alpha = 1.5;
  *beta = 1.2;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++)
      D[i][j] = (DATA_TYPE) ((i * 2 + j * 3 + 1) % ni) / ni;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++)
      tmp[i][j] = (DATA_TYPE) ((i * 3 + j * 4 + 1) % ni) / ni;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nk; j++)
      A[i][j] = (DATA_TYPE) ((i * 4 + j * 5 + 1) % ni) / ni;
  for (i = 0; i < nk; i++)
    for (j = 0; j < nj; j++)
      B[i][j] = (DATA_TYPE) ((i * 5 + j * 6 + 1) % nk) / nk;
  for (i = 0; i < nj; i++)
    for (j = 0; j < nl; j++)
      C[i][j] = (DATA_TYPE) ((i * 6 + j * 7 + 1) % nj) / nj;
}

static void kernel_2mm(int ni, int nj, int nk, int nl, DATA_TYPE alpha, DATA_TYPE beta,
                       DATA_TYPE POLYBENCH_2D(D, NI, NL, ni, nl),
                       DATA_TYPE POLYBENCH_2D(tmp, NI, NJ, ni, nj),
                       DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                       DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj),
                       DATA_TYPE POLYBENCH_2D(C, NJ, NL, nj, nl))
{
  int i, j, k;

#pragma scop
  for (i = 0; i < _PB_NI; i++)
    for (j = 0; j < _PB_NJ; j++) {
      tmp[i][j] = SCALAR_VAL(0.0);
      for (k = 0; k < _PB_NK; ++k)
        tmp[i][j] += alpha * A[i][k] * B[k][j];
    }
  for (i = 0; i < _PB_NI; i++)
    for (j = 0; j < _PB_NL; j++) {
      D[i][j] *= beta;
      for (k = 0; k < _PB_NJ; ++k)
        D[i][j] += tmp[i][k] * C[k][j];
    }
#pragma endscop
}

int main(void)
{
  DATA_TYPE alpha;
  DATA_TYPE beta;
  POLYBENCH_2D_ARRAY_DECL(D, DATA_TYPE, NI, NL, NI, NL);
  POLYBENCH_2D_ARRAY_DECL(tmp, DATA_TYPE, NI, NJ, NI, NJ);
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, NI, NK, NI, NK);
  POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, NK, NJ, NK, NJ);
  POLYBENCH_2D_ARRAY_DECL(C, DATA_TYPE, NJ, NL, NJ, NL);

  init_array(NI, NJ, NK, NL, &alpha, &beta, POLYBENCH_ARRAY(D), POLYBENCH_ARRAY(tmp), POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B), POLYBENCH_ARRAY(C));
  polybench_start_instruments;
  kernel_2mm(NI, NJ, NK, NL, alpha, beta, POLYBENCH_ARRAY(D), POLYBENCH_ARRAY(tmp), POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B), POLYBENCH_ARRAY(C));
  polybench_stop_instruments;
  polybench_print_instruments;

  POLYBENCH_DUMP_START;
  polybench_dump_2d("D", POLYBENCH_ARRAY(D), NI, NL);
  polybench_dump_2d("tmp", POLYBENCH_ARRAY(tmp), NI, NJ);
  POLYBENCH_DUMP_FINISH;
  POLYBENCH_FREE_ARRAY(D);
  POLYBENCH_FREE_ARRAY(tmp);
  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(B);
  POLYBENCH_FREE_ARRAY(C);
  return 0;
}
