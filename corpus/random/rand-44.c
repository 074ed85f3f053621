/* rand-44: Random affine nest 44 (depth 2, order j, i, float).
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NI=64..4096, NJ=64..4096 */
#define DATA_TYPE float
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

static void kernel_rand_44(DATA_TYPE A[restrict NI][NJ], DATA_TYPE B[restrict NJ])
{
  int i, j;

#pragma scop
  for (j = 0; j < NJ; j++)
    for (i = 0; i < NI; i++)
      A[i][j] = A[i][j] + 0.3 * B[j];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  DATA_TYPE *B = corpus_alloc((size_t) NJ, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NI * NJ, 0);
  corpus_init(B, (size_t) NJ, 1);
  kernel_rand_44(A, B);
  corpus_dump("A", &A[0][0], (size_t) NI * NJ);
  free((void *) A);
  free((void *) B);
  return 0;
}
