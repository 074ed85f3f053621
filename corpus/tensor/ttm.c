/* ttm: Tensor-times-matrix along the last mode: Y[i][j][k] += X[i][j][l] * U[l][k].
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NI=4..256, NJ=8..512, NK=8..512, NL=8..512 */
#include <corpus.h>

#ifdef TSS_SMALL
# define NI 5
# define NJ 7
# define NK 9
# define NL 11
#endif
#ifndef NI
# define NI 64
#endif
#ifndef NJ
# define NJ 128
#endif
#ifndef NK
# define NK 128
#endif
#ifndef NL
# define NL 128
#endif

static void kernel_ttm(DATA_TYPE Y[restrict NI][NJ][NK], DATA_TYPE X[restrict NI][NJ][NL], DATA_TYPE U[restrict NL][NK])
{
  int i, j, k, l;

#pragma scop
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      for (l = 0; l < NL; l++)
        for (k = 0; k < NK; k++)
          Y[i][j][k] += X[i][j][l] * U[l][k];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*Y)[NJ][NK] = corpus_alloc((size_t) NI * NJ * NK, sizeof(DATA_TYPE));
  DATA_TYPE (*X)[NJ][NL] = corpus_alloc((size_t) NI * NJ * NL, sizeof(DATA_TYPE));
  DATA_TYPE (*U)[NK] = corpus_alloc((size_t) NL * NK, sizeof(DATA_TYPE));
  corpus_init(&Y[0][0][0], (size_t) NI * NJ * NK, 0);
  corpus_init(&X[0][0][0], (size_t) NI * NJ * NL, 1);
  corpus_init(&U[0][0], (size_t) NL * NK, 2);
  kernel_ttm(Y, X, U);
  corpus_dump("Y", &Y[0][0][0], (size_t) NI * NJ * NK);
  free((void *) Y);
  free((void *) X);
  free((void *) U);
  return 0;
}
