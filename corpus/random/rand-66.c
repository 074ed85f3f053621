/* rand-66: Random affine nest 66 (depth 3, order k, i, j, float).
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

static void kernel_rand_66(DATA_TYPE A[restrict NK][NI], DATA_TYPE B[restrict NI][NK], DATA_TYPE C[restrict NJ], DATA_TYPE D[restrict NK][NJ], DATA_TYPE E[restrict NI][NK], DATA_TYPE F[restrict NI][NJ])
{
  int i, j, k;

#pragma scop
  for (k = 0; k < NK; k++)
    for (i = 0; i < NI; i++)
      for (j = 0; j < NJ; j++) {
        A[k][i] += 0.25 * B[i][k] * C[j];
        D[k][j] += 0.5 * E[i][k] * F[i][j];
      }
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NI] = corpus_alloc((size_t) NK * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NK] = corpus_alloc((size_t) NI * NK, sizeof(DATA_TYPE));
  DATA_TYPE *C = corpus_alloc((size_t) NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*D)[NJ] = corpus_alloc((size_t) NK * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*E)[NK] = corpus_alloc((size_t) NI * NK, sizeof(DATA_TYPE));
  DATA_TYPE (*F)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NK * NI, 0);
  corpus_init(&B[0][0], (size_t) NI * NK, 1);
  corpus_init(C, (size_t) NJ, 2);
  corpus_init(&D[0][0], (size_t) NK * NJ, 3);
  corpus_init(&E[0][0], (size_t) NI * NK, 4);
  corpus_init(&F[0][0], (size_t) NI * NJ, 5);
  kernel_rand_66(A, B, C, D, E, F);
  corpus_dump("A", &A[0][0], (size_t) NK * NI);
  corpus_dump("D", &D[0][0], (size_t) NK * NJ);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  free((void *) E);
  free((void *) F);
  return 0;
}
