/* rand-20: Random affine nest 20 (depth 4, order l, k, j, i, double).
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NI=8..512, NJ=8..512, NK=8..512, NL=8..512 */
#include <corpus.h>

#ifdef TSS_SMALL
# define NI 37
# define NJ 29
# define NK 23
# define NL 19
#endif
#ifndef NI
# define NI 90
#endif
#ifndef NJ
# define NJ 90
#endif
#ifndef NK
# define NK 90
#endif
#ifndef NL
# define NL 90
#endif

static void kernel_rand_20(DATA_TYPE A[restrict NJ][NL], DATA_TYPE B[restrict NL][NI], DATA_TYPE C[restrict NJ][NK])
{
  int i, j, k, l;

#pragma scop
  for (l = 0; l < NL; l++)
    for (k = 0; k < NK; k++)
      for (j = 0; j < NJ; j++)
        for (i = 0; i < NI; i++)
          A[j][l] += 0.25 * B[l][i] * C[j][k];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NL] = corpus_alloc((size_t) NJ * NL, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NI] = corpus_alloc((size_t) NL * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NK] = corpus_alloc((size_t) NJ * NK, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NJ * NL, 0);
  corpus_init(&B[0][0], (size_t) NL * NI, 1);
  corpus_init(&C[0][0], (size_t) NJ * NK, 2);
  kernel_rand_20(A, B, C);
  corpus_dump("A", &A[0][0], (size_t) NJ * NL);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  return 0;
}
