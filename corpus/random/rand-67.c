/* rand-67: Random affine nest 67 (depth 3, order j, k, i, triangular, float).
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

static void kernel_rand_67(DATA_TYPE A[restrict NI], DATA_TYPE B[restrict NK], DATA_TYPE C[restrict NI][NK], DATA_TYPE D[restrict NJ], DATA_TYPE E[restrict NJ][NI])
{
  int i, j, k;

#pragma scop
  for (j = 0; j < NJ; j++)
    for (k = j; k < NK; k++)
      for (i = 0; i < NI; i++) {
        A[i] += 0.25 * B[k];
        C[i][k] += 1.5 * D[j] * E[j][i];
      }
#pragma endscop
}

int main(void)
{
  DATA_TYPE *A = corpus_alloc((size_t) NI, sizeof(DATA_TYPE));
  DATA_TYPE *B = corpus_alloc((size_t) NK, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NK] = corpus_alloc((size_t) NI * NK, sizeof(DATA_TYPE));
  DATA_TYPE *D = corpus_alloc((size_t) NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*E)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  corpus_init(A, (size_t) NI, 0);
  corpus_init(B, (size_t) NK, 1);
  corpus_init(&C[0][0], (size_t) NI * NK, 2);
  corpus_init(D, (size_t) NJ, 3);
  corpus_init(&E[0][0], (size_t) NJ * NI, 4);
  kernel_rand_67(A, B, C, D, E);
  corpus_dump("A", A, (size_t) NI);
  corpus_dump("C", &C[0][0], (size_t) NI * NK);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  free((void *) E);
  return 0;
}
