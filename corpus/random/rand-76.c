/* rand-76: Random affine nest 76 (depth 3, order j, k, i, float).
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NI=16..2048, NJ=16..2048, NK=16..2048 */
#define DATA_TYPE float
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

static void kernel_rand_76(DATA_TYPE A[restrict NJ][NI], DATA_TYPE B[restrict NI], DATA_TYPE C[restrict NI][NK])
{
  int i, j, k;

#pragma scop
  for (j = 0; j < NJ; j++)
    for (k = 0; k < NK; k++)
      for (i = 0; i < NI; i++)
        A[j][i] += 1.5 * B[i] * C[i][k];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  DATA_TYPE *B = corpus_alloc((size_t) NI, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NK] = corpus_alloc((size_t) NI * NK, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NJ * NI, 0);
  corpus_init(B, (size_t) NI, 1);
  corpus_init(&C[0][0], (size_t) NI * NK, 2);
  kernel_rand_76(A, B, C);
  corpus_dump("A", &A[0][0], (size_t) NJ * NI);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  return 0;
}
