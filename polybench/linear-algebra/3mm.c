/* 3mm: 3mm in the PolyBench/C 4.2.1 style: G := (A*B)*(C*D), three matrix products.
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
# define NK 1000
#endif
#ifndef NL
# define NL 1100
#endif
#ifndef NM
# define NM 1200
#endif
#define _PB_NI POLYBENCH_LOOP_BOUND(NI, ni)
#define _PB_NJ POLYBENCH_LOOP_BOUND(NJ, nj)
#define _PB_NK POLYBENCH_LOOP_BOUND(NK, nk)
#define _PB_NL POLYBENCH_LOOP_BOUND(NL, nl)
#define _PB_NM POLYBENCH_LOOP_BOUND(NM, nm)

static void init_array(int ni, int nj, int nk, int nl, int nm,
                       DATA_TYPE POLYBENCH_2D(G, NI, NL, ni, nl),
                       DATA_TYPE POLYBENCH_2D(E, NI, NJ, ni, nj),
                       DATA_TYPE POLYBENCH_2D(F, NJ, NL, nj, nl),
                       DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                       DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj),
                       DATA_TYPE POLYBENCH_2D(C, NJ, NM, nj, nm),
                       DATA_TYPE POLYBENCH_2D(D, NM, NL, nm, nl))
{
  int i, j;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++)
      G[i][j] = (DATA_TYPE) ((i * 2 + j * 3 + 1) % ni) / ni;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++)
      E[i][j] = (DATA_TYPE) ((i * 3 + j * 4 + 1) % ni) / ni;
  for (i = 0; i < nj; i++)
    for (j = 0; j < nl; j++)
      F[i][j] = (DATA_TYPE) ((i * 4 + j * 5 + 1) % nj) / nj;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nk; j++)
      A[i][j] = (DATA_TYPE) ((i * 5 + j * 6 + 1) % ni) / ni;
  for (i = 0; i < nk; i++)
    for (j = 0; j < nj; j++)
      B[i][j] = (DATA_TYPE) ((i * 6 + j * 7 + 1) % nk) / nk;
  for (i = 0; i < nj; i++)
    for (j = 0; j < nm; j++)
      C[i][j] = (DATA_TYPE) ((i * 7 + j * 8 + 1) % nj) / nj;
  for (i = 0; i < nm; i++)
    for (j = 0; j < nl; j++)
      D[i][j] = (DATA_TYPE) ((i * 8 + j * 9 + 1) % nm) / nm;
}

static void kernel_3mm(int ni, int nj, int nk, int nl, int nm,
                       DATA_TYPE POLYBENCH_2D(G, NI, NL, ni, nl),
                       DATA_TYPE POLYBENCH_2D(E, NI, NJ, ni, nj),
                       DATA_TYPE POLYBENCH_2D(F, NJ, NL, nj, nl),
                       DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                       DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj),
                       DATA_TYPE POLYBENCH_2D(C, NJ, NM, nj, nm),
                       DATA_TYPE POLYBENCH_2D(D, NM, NL, nm, nl))
{
  int i, j, k;

#pragma scop
  for (i = 0; i < _PB_NI; i++)
    for (j = 0; j < _PB_NJ; j++) {
      E[i][j] = SCALAR_VAL(0.0);
      for (k = 0; k < _PB_NK; ++k)
        E[i][j] += A[i][k] * B[k][j];
    }
  for (i = 0; i < _PB_NJ; i++)
    for (j = 0; j < _PB_NL; j++) {
      F[i][j] = SCALAR_VAL(0.0);
      for (k = 0; k < _PB_NM; ++k)
        F[i][j] += C[i][k] * D[k][j];
    }
  for (i = 0; i < _PB_NI; i++)
    for (j = 0; j < _PB_NL; j++) {
      G[i][j] = SCALAR_VAL(0.0);
      for (k = 0; k < _PB_NJ; ++k)
        G[i][j] += E[i][k] * F[k][j];
    }
#pragma endscop
}

int main(void)
{
  POLYBENCH_2D_ARRAY_DECL(G, DATA_TYPE, NI, NL, NI, NL);
  POLYBENCH_2D_ARRAY_DECL(E, DATA_TYPE, NI, NJ, NI, NJ);
  POLYBENCH_2D_ARRAY_DECL(F, DATA_TYPE, NJ, NL, NJ, NL);
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, NI, NK, NI, NK);
  POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, NK, NJ, NK, NJ);
  POLYBENCH_2D_ARRAY_DECL(C, DATA_TYPE, NJ, NM, NJ, NM);
  POLYBENCH_2D_ARRAY_DECL(D, DATA_TYPE, NM, NL, NM, NL);

  init_array(NI, NJ, NK, NL, NM, POLYBENCH_ARRAY(G), POLYBENCH_ARRAY(E), POLYBENCH_ARRAY(F), POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B), POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(D));
  polybench_start_instruments;
  kernel_3mm(NI, NJ, NK, NL, NM, POLYBENCH_ARRAY(G), POLYBENCH_ARRAY(E), POLYBENCH_ARRAY(F), POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B), POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(D));
  polybench_stop_instruments;
  polybench_print_instruments;

  POLYBENCH_DUMP_START;
  polybench_dump_2d("G", POLYBENCH_ARRAY(G), NI, NL);
  polybench_dump_2d("E", POLYBENCH_ARRAY(E), NI, NJ);
  polybench_dump_2d("F", POLYBENCH_ARRAY(F), NJ, NL);
  POLYBENCH_DUMP_FINISH;
  POLYBENCH_FREE_ARRAY(G);
  POLYBENCH_FREE_ARRAY(E);
  POLYBENCH_FREE_ARRAY(F);
  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(B);
  POLYBENCH_FREE_ARRAY(C);
  POLYBENCH_FREE_ARRAY(D);
  return 0;
}
