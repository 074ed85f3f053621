/* rand-50: Random affine nest 50 (depth 3, order k, i, j, double).
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NI=16..2048, NJ=16..2048, NK=16..2048 */
#include <corpus.h>

#ifdef TSS_SMALL
# define NI 37
# define NJ 29
# define NK 23
#endif
#ifndef NI
# define NI 400
#endif
#ifndef NJ
# define NJ 400
#endif
#ifndef NK
# define NK 400
#endif

static void kernel_rand_50(DATA_TYPE A[restrict NK], DATA_TYPE B[restrict NI][NK], DATA_TYPE C[restrict NJ][NI])
{
  int i, j, k;

#pragma scop
  for (k = 0; k < NK; k++)
    for (i = 0; i < NI; i++)
      for (j = 0; j < NJ; j++)
        A[k] += 0.25 * B[i][k] * C[j][i];
#pragma endscop
}

int main(void)
{
  DATA_TYPE *A = corpus_alloc((size_t) NK, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NK] = corpus_alloc((size_t) NI * NK, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  corpus_init(A, (size_t) NK, 0);
  corpus_init(&B[0][0], (size_t) NI * NK, 1);
  corpus_init(&C[0][0], (size_t) NJ * NI, 2);
  kernel_rand_50(A, B, C);
  corpus_dump("A", A, (size_t) NK);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  return 0;
}
