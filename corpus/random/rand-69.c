/* rand-69: Random affine nest 69 (depth 2, order i, j, double).
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

static void kernel_rand_69(DATA_TYPE A[restrict NI][NJ], DATA_TYPE B[restrict NJ + 1], DATA_TYPE C[restrict NJ][NI])
{
  int i, j;

#pragma scop
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      A[i][j] = A[i][j] + 0.2 * B[j + 1];
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      C[j][i] += 0.5 * A[i][j];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  DATA_TYPE *B = corpus_alloc((size_t) (NJ + 1), sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NI * NJ, 0);
  corpus_init(B, (size_t) (NJ + 1), 1);
  corpus_init(&C[0][0], (size_t) NJ * NI, 2);
  kernel_rand_69(A, B, C);
  corpus_dump("A", &A[0][0], (size_t) NI * NJ);
  corpus_dump("C", &C[0][0], (size_t) NJ * NI);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  return 0;
}
