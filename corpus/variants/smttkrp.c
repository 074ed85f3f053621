/* smttkrp: Single-precision MTTKRP in order i, j, k, l (the output's column loop outside the reduction).
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NI=8..512, NJ=8..256, NK=8..512, NL=8..512 */
#define DATA_TYPE float
#include <corpus.h>

#ifdef TSS_SMALL
# define NI 7
# define NJ 9
# define NK 5
# define NL 11
#endif
#ifndef NI
# define NI 128
#endif
#ifndef NJ
# define NJ 64
#endif
#ifndef NK
# define NK 128
#endif
#ifndef NL
# define NL 128
#endif

static void kernel_smttkrp(DATA_TYPE A[restrict NI][NJ], DATA_TYPE X[restrict NI][NK][NL], DATA_TYPE C[restrict NK][NJ], DATA_TYPE D[restrict NL][NJ])
{
  int i, j, k, l;

#pragma scop
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      for (k = 0; k < NK; k++)
        for (l = 0; l < NL; l++)
          A[i][j] += X[i][k][l] * C[k][j] * D[l][j];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*X)[NK][NL] = corpus_alloc((size_t) NI * NK * NL, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NJ] = corpus_alloc((size_t) NK * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*D)[NJ] = corpus_alloc((size_t) NL * NJ, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NI * NJ, 0);
  corpus_init(&X[0][0][0], (size_t) NI * NK * NL, 1);
  corpus_init(&C[0][0], (size_t) NK * NJ, 2);
  corpus_init(&D[0][0], (size_t) NL * NJ, 3);
  kernel_smttkrp(A, X, C, D);
  corpus_dump("A", &A[0][0], (size_t) NI * NJ);
  free((void *) A);
  free((void *) X);
  free((void *) C);
  free((void *) D);
  return 0;
}
