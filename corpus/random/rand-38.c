/* rand-38: Random affine nest 38 (depth 2, order i, j, triangular, double).
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

static void kernel_rand_38(DATA_TYPE A[restrict NI][NJ], DATA_TYPE B[restrict NI][NJ], DATA_TYPE C[restrict NI][NJ], DATA_TYPE D[restrict NI][NJ])
{
  int i, j;

#pragma scop
  for (i = 0; i < NI; i++)
    for (j = i; j < NJ; j++) {
      A[i][j] += 0.5 * B[i][j];
      C[i][j] += 1.5 * D[i][j];
    }
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*D)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NI * NJ, 0);
  corpus_init(&B[0][0], (size_t) NI * NJ, 1);
  corpus_init(&C[0][0], (size_t) NI * NJ, 2);
  corpus_init(&D[0][0], (size_t) NI * NJ, 3);
  kernel_rand_38(A, B, C, D);
  corpus_dump("A", &A[0][0], (size_t) NI * NJ);
  corpus_dump("C", &C[0][0], (size_t) NI * NJ);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  return 0;
}
