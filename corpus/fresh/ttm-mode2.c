/* ttm-mode2: Tensor-times-matrix along the middle mode: Y[i][k][j] += U[k][l] * X[i][l][j].
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

static void kernel_ttm_mode2(DATA_TYPE Y[restrict NI][NK][NJ], DATA_TYPE X[restrict NI][NL][NJ], DATA_TYPE U[restrict NK][NL])
{
  int i, j, k, l;

#pragma scop
  for (i = 0; i < NI; i++)
    for (k = 0; k < NK; k++)
      for (l = 0; l < NL; l++)
        for (j = 0; j < NJ; j++)
          Y[i][k][j] += U[k][l] * X[i][l][j];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*Y)[NK][NJ] = corpus_alloc((size_t) NI * NK * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*X)[NL][NJ] = corpus_alloc((size_t) NI * NL * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*U)[NL] = corpus_alloc((size_t) NK * NL, sizeof(DATA_TYPE));
  corpus_init(&Y[0][0][0], (size_t) NI * NK * NJ, 0);
  corpus_init(&X[0][0][0], (size_t) NI * NL * NJ, 1);
  corpus_init(&U[0][0], (size_t) NK * NL, 2);
  kernel_ttm_mode2(Y, X, U);
  corpus_dump("Y", &Y[0][0][0], (size_t) NI * NK * NJ);
  free((void *) Y);
  free((void *) X);
  free((void *) U);
  return 0;
}
