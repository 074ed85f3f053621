/* gemm-chain: E = (A * B) * C: two products through a temporary, as in 2mm without scaling.
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NI=32..1024, NJ=32..1024, NK=32..1024, NL=32..1024 */
#include <corpus.h>

#ifdef TSS_SMALL
# define NI 37
# define NJ 41
# define NK 29
# define NL 23
#endif
#ifndef NI
# define NI 800
#endif
#ifndef NJ
# define NJ 900
#endif
#ifndef NK
# define NK 700
#endif
#ifndef NL
# define NL 1000
#endif

static void kernel_gemm_chain(DATA_TYPE E[restrict NI][NL], DATA_TYPE T[restrict NI][NJ], DATA_TYPE A[restrict NI][NK], DATA_TYPE B[restrict NK][NJ], DATA_TYPE C[restrict NJ][NL])
{
  int i, j, k;

#pragma scop
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      for (k = 0; k < NK; k++)
        T[i][j] += A[i][k] * B[k][j];
  for (i = 0; i < NI; i++)
    for (j = 0; j < NL; j++)
      for (k = 0; k < NJ; k++)
        E[i][j] += T[i][k] * C[k][j];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*E)[NL] = corpus_alloc((size_t) NI * NL, sizeof(DATA_TYPE));
  DATA_TYPE (*T)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*A)[NK] = corpus_alloc((size_t) NI * NK, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NJ] = corpus_alloc((size_t) NK * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NL] = corpus_alloc((size_t) NJ * NL, sizeof(DATA_TYPE));
  corpus_init(&E[0][0], (size_t) NI * NL, 0);
  corpus_init(&T[0][0], (size_t) NI * NJ, 1);
  corpus_init(&A[0][0], (size_t) NI * NK, 2);
  corpus_init(&B[0][0], (size_t) NK * NJ, 3);
  corpus_init(&C[0][0], (size_t) NJ * NL, 4);
  kernel_gemm_chain(E, T, A, B, C);
  corpus_dump("E", &E[0][0], (size_t) NI * NL);
  corpus_dump("T", &T[0][0], (size_t) NI * NJ);
  free((void *) E);
  free((void *) T);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  return 0;
}
