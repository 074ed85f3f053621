/* rand-49: Random affine nest 49 (depth 3, order k, i, j, float).
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

static void kernel_rand_49(DATA_TYPE A[restrict NJ][NK], DATA_TYPE B[restrict NJ + 2], DATA_TYPE C[restrict NI], DATA_TYPE D[restrict NJ], DATA_TYPE E[restrict NI][NJ])
{
  int i, j, k;

#pragma scop
  for (k = 0; k < NK; k++)
    for (i = 0; i < NI; i++)
      for (j = 0; j < NJ; j++) {
        A[j][k] = A[j][k] + 0.1 * B[j + 2];
        C[i] += 0.5 * D[j] * E[i][j];
      }
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NK] = corpus_alloc((size_t) NJ * NK, sizeof(DATA_TYPE));
  DATA_TYPE *B = corpus_alloc((size_t) (NJ + 2), sizeof(DATA_TYPE));
  DATA_TYPE *C = corpus_alloc((size_t) NI, sizeof(DATA_TYPE));
  DATA_TYPE *D = corpus_alloc((size_t) NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*E)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NJ * NK, 0);
  corpus_init(B, (size_t) (NJ + 2), 1);
  corpus_init(C, (size_t) NI, 2);
  corpus_init(D, (size_t) NJ, 3);
  corpus_init(&E[0][0], (size_t) NI * NJ, 4);
  kernel_rand_49(A, B, C, D, E);
  corpus_dump("A", &A[0][0], (size_t) NJ * NK);
  corpus_dump("C", C, (size_t) NI);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  free((void *) E);
  return 0;
}
