/* rand-52: Random affine nest 52 (depth 2, order j, i, float).
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NI=64..4096, NJ=64..4096 */
#define DATA_TYPE float
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

static void kernel_rand_52(DATA_TYPE A[restrict NJ][NI], DATA_TYPE B[restrict NI + 1], DATA_TYPE C[restrict NJ], DATA_TYPE D[restrict NI][NJ])
{
  int i, j;

#pragma scop
  for (j = 0; j < NJ; j++)
    for (i = 0; i < NI; i++)
      A[j][i] = A[j][i] + 0.1 * B[i + 1] + 0.3 * C[j];
  for (j = 0; j < NJ; j++)
    for (i = 0; i < NI; i++)
      D[i][j] += 0.5 * A[j][i];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  DATA_TYPE *B = corpus_alloc((size_t) (NI + 1), sizeof(DATA_TYPE));
  DATA_TYPE *C = corpus_alloc((size_t) NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*D)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NJ * NI, 0);
  corpus_init(B, (size_t) (NI + 1), 1);
  corpus_init(C, (size_t) NJ, 2);
  corpus_init(&D[0][0], (size_t) NI * NJ, 3);
  kernel_rand_52(A, B, C, D);
  corpus_dump("A", &A[0][0], (size_t) NJ * NI);
  corpus_dump("D", &D[0][0], (size_t) NI * NJ);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  return 0;
}
