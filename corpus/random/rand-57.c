/* rand-57: Random affine nest 57 (depth 2, order i, j, double).
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

static void kernel_rand_57(DATA_TYPE A[restrict NJ][NI], DATA_TYPE B[restrict NJ], DATA_TYPE C[restrict NI][NJ], DATA_TYPE D[restrict NJ][NI], DATA_TYPE E[restrict NJ][NI])
{
  int i, j;

#pragma scop
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++) {
      A[j][i] += 0.5 * B[j] * C[i][j];
      D[j][i] += 1.5 * E[j][i];
    }
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  DATA_TYPE *B = corpus_alloc((size_t) NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*D)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*E)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NJ * NI, 0);
  corpus_init(B, (size_t) NJ, 1);
  corpus_init(&C[0][0], (size_t) NI * NJ, 2);
  corpus_init(&D[0][0], (size_t) NJ * NI, 3);
  corpus_init(&E[0][0], (size_t) NJ * NI, 4);
  kernel_rand_57(A, B, C, D, E);
  corpus_dump("A", &A[0][0], (size_t) NJ * NI);
  corpus_dump("D", &D[0][0], (size_t) NJ * NI);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  free((void *) E);
  return 0;
}
