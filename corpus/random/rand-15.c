/* rand-15: Random affine nest 15 (depth 2, order j, i, double).
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

static void kernel_rand_15(DATA_TYPE A[restrict NJ][NI], DATA_TYPE B[restrict NJ], DATA_TYPE C[restrict NJ][NI])
{
  int i, j;

#pragma scop
  for (j = 0; j < NJ; j++)
    for (i = 0; i < NI; i++)
      A[j][i] = A[j][i] + 0.1 * B[j] + 0.1 * C[j][i];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  DATA_TYPE *B = corpus_alloc((size_t) NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NJ * NI, 0);
  corpus_init(B, (size_t) NJ, 1);
  corpus_init(&C[0][0], (size_t) NJ * NI, 2);
  kernel_rand_15(A, B, C);
  corpus_dump("A", &A[0][0], (size_t) NJ * NI);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  return 0;
}
