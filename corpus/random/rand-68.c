/* rand-68: Random affine nest 68 (depth 2, order i, j, double).
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

static void kernel_rand_68(DATA_TYPE A[restrict NJ][NI], DATA_TYPE B[restrict NJ][NI], DATA_TYPE C[restrict NI][NJ])
{
  int i, j;

#pragma scop
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      A[j][i] += 0.5 * B[j][i];
  for (j = 0; j < NJ; j++)
    for (i = 0; i < NI; i++)
      C[i][j] += 0.5 * A[j][i];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NJ * NI, 0);
  corpus_init(&B[0][0], (size_t) NJ * NI, 1);
  corpus_init(&C[0][0], (size_t) NI * NJ, 2);
  kernel_rand_68(A, B, C);
  corpus_dump("A", &A[0][0], (size_t) NJ * NI);
  corpus_dump("C", &C[0][0], (size_t) NI * NJ);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  return 0;
}
