/* rand-74: Random affine nest 74 (depth 3, order i, k, j, double).
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

static void kernel_rand_74(DATA_TYPE A[restrict NK][NI], DATA_TYPE B[restrict NK][NI], DATA_TYPE C[restrict NI][NJ])
{
  int i, j, k;

#pragma scop
  for (i = 0; i < NI; i++)
    for (k = 0; k < NK; k++)
      for (j = 0; j < NJ; j++)
        A[k][i] += 1.5 * B[k][i] * C[i][j];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NI] = corpus_alloc((size_t) NK * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NI] = corpus_alloc((size_t) NK * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NK * NI, 0);
  corpus_init(&B[0][0], (size_t) NK * NI, 1);
  corpus_init(&C[0][0], (size_t) NI * NJ, 2);
  kernel_rand_74(A, B, C);
  corpus_dump("A", &A[0][0], (size_t) NK * NI);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  return 0;
}
