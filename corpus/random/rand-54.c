/* rand-54: Random affine nest 54 (depth 3, order k, i, j, double).
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

static void kernel_rand_54(DATA_TYPE A[restrict NI][NK], DATA_TYPE B[restrict NK][NJ], DATA_TYPE C[restrict NK + 2][NI])
{
  int i, j, k;

#pragma scop
  for (k = 0; k < NK; k++)
    for (i = 0; i < NI; i++)
      for (j = 0; j < NJ; j++)
        A[i][k] = A[i][k] + 0.3 * B[k][j] + 0.2 * C[k + 2][i];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NK] = corpus_alloc((size_t) NI * NK, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NJ] = corpus_alloc((size_t) NK * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NI] = corpus_alloc((size_t) (NK + 2) * NI, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NI * NK, 0);
  corpus_init(&B[0][0], (size_t) NK * NJ, 1);
  corpus_init(&C[0][0], (size_t) (NK + 2) * NI, 2);
  kernel_rand_54(A, B, C);
  corpus_dump("A", &A[0][0], (size_t) NI * NK);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  return 0;
}
