/* rand-06: Random affine nest 6 (depth 2, order j, i, double).
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NI=64..4096, NJ=64..4096 */
#include <corpus.h>

#ifdef TSS_SMALL
# define NI 37
# define NJ 29
#endif
#ifndef NI
# define NI 2000
#endif
#ifndef NJ
# define NJ 2000
#endif

static void kernel_rand_06(DATA_TYPE A[restrict NJ][NI], DATA_TYPE B[restrict NI + 2][NJ])
{
  int i, j;

#pragma scop
  for (j = 0; j < NJ; j++)
    for (i = 0; i < NI; i++)
      A[j][i] = A[j][i] + 0.1 * B[i + 2][j];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NJ] = corpus_alloc((size_t) (NI + 2) * NJ, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NJ * NI, 0);
  corpus_init(&B[0][0], (size_t) (NI + 2) * NJ, 1);
  kernel_rand_06(A, B);
  corpus_dump("A", &A[0][0], (size_t) NJ * NI);
  free((void *) A);
  free((void *) B);
  return 0;
}
