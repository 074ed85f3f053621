/* rand-35: Random affine nest 35 (depth 3, order i, j, k, triangular, float).
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

static void kernel_rand_35(DATA_TYPE A[restrict NI][NK], DATA_TYPE B[restrict NK][NJ], DATA_TYPE C[restrict NK][NJ], DATA_TYPE D[restrict NJ][NK], DATA_TYPE E[restrict NJ][NI], DATA_TYPE F[restrict NI][NK])
{
  int i, j, k;

#pragma scop
  for (i = 0; i < NI; i++)
    for (j = i; j < NJ; j++)
      for (k = 0; k < NK; k++) {
        A[i][k] += 0.5 * B[k][j] * C[k][j];
        D[j][k] += 0.25 * E[j][i] * F[i][k];
      }
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NK] = corpus_alloc((size_t) NI * NK, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NJ] = corpus_alloc((size_t) NK * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NJ] = corpus_alloc((size_t) NK * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*D)[NK] = corpus_alloc((size_t) NJ * NK, sizeof(DATA_TYPE));
  DATA_TYPE (*E)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*F)[NK] = corpus_alloc((size_t) NI * NK, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NI * NK, 0);
  corpus_init(&B[0][0], (size_t) NK * NJ, 1);
  corpus_init(&C[0][0], (size_t) NK * NJ, 2);
  corpus_init(&D[0][0], (size_t) NJ * NK, 3);
  corpus_init(&E[0][0], (size_t) NJ * NI, 4);
  corpus_init(&F[0][0], (size_t) NI * NK, 5);
  kernel_rand_35(A, B, C, D, E, F);
  corpus_dump("A", &A[0][0], (size_t) NI * NK);
  corpus_dump("D", &D[0][0], (size_t) NJ * NK);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  free((void *) E);
  free((void *) F);
  return 0;
}
