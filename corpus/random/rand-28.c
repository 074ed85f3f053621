/* rand-28: Random affine nest 28 (depth 3, order j, i, k, triangular, double).
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

static void kernel_rand_28(DATA_TYPE A[restrict NK][NI], DATA_TYPE B[restrict NJ][NK], DATA_TYPE C[restrict NK][NI], DATA_TYPE D[restrict NK][NI], DATA_TYPE E[restrict NK][NJ], DATA_TYPE F[restrict NK][NI])
{
  int i, j, k;

#pragma scop
  for (j = 0; j < NJ; j++)
    for (i = j; i < NI; i++)
      for (k = 0; k < NK; k++) {
        A[k][i] += 0.25 * B[j][k] * C[k][i];
        D[k][i] += 0.5 * E[k][j] * F[k][i];
      }
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NI] = corpus_alloc((size_t) NK * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NK] = corpus_alloc((size_t) NJ * NK, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NI] = corpus_alloc((size_t) NK * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*D)[NI] = corpus_alloc((size_t) NK * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*E)[NJ] = corpus_alloc((size_t) NK * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*F)[NI] = corpus_alloc((size_t) NK * NI, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NK * NI, 0);
  corpus_init(&B[0][0], (size_t) NJ * NK, 1);
  corpus_init(&C[0][0], (size_t) NK * NI, 2);
  corpus_init(&D[0][0], (size_t) NK * NI, 3);
  corpus_init(&E[0][0], (size_t) NK * NJ, 4);
  corpus_init(&F[0][0], (size_t) NK * NI, 5);
  kernel_rand_28(A, B, C, D, E, F);
  corpus_dump("A", &A[0][0], (size_t) NK * NI);
  corpus_dump("D", &D[0][0], (size_t) NK * NI);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  free((void *) E);
  free((void *) F);
  return 0;
}
