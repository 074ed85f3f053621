/* rand-10: Random affine nest 10 (depth 2, order i, j, double).
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

static void kernel_rand_10(DATA_TYPE A[restrict NJ], DATA_TYPE B[restrict NI], DATA_TYPE C[restrict NJ][NI])
{
  int i, j;

#pragma scop
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      A[j] += 0.25 * B[i] * C[j][i];
#pragma endscop
}

int main(void)
{
  DATA_TYPE *A = corpus_alloc((size_t) NJ, sizeof(DATA_TYPE));
  DATA_TYPE *B = corpus_alloc((size_t) NI, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  corpus_init(A, (size_t) NJ, 0);
  corpus_init(B, (size_t) NI, 1);
  corpus_init(&C[0][0], (size_t) NJ * NI, 2);
  kernel_rand_10(A, B, C);
  corpus_dump("A", A, (size_t) NJ);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  return 0;
}
