/* rand-41: Random affine nest 41 (depth 3, order k, i, j, triangular, double).
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

static void kernel_rand_41(DATA_TYPE A[restrict NJ][NK], DATA_TYPE B[restrict NI], DATA_TYPE C[restrict NK][NJ])
{
  int i, j, k;

#pragma scop
  for (k = 0; k < NK; k++)
    for (i = k; i < NI; i++)
      for (j = 0; j < NJ; j++)
        A[j][k] += 1.5 * B[i];
  for (j = 0; j < NJ; j++)
    for (k = 0; k < NK; k++)
      C[k][j] += 0.5 * A[j][k];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NK] = corpus_alloc((size_t) NJ * NK, sizeof(DATA_TYPE));
  DATA_TYPE *B = corpus_alloc((size_t) NI, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NJ] = corpus_alloc((size_t) NK * NJ, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NJ * NK, 0);
  corpus_init(B, (size_t) NI, 1);
  corpus_init(&C[0][0], (size_t) NK * NJ, 2);
  kernel_rand_41(A, B, C);
  corpus_dump("A", &A[0][0], (size_t) NJ * NK);
  corpus_dump("C", &C[0][0], (size_t) NK * NJ);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  return 0;
}
