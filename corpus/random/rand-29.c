/* rand-29: Random affine nest 29 (depth 3, order k, i, j, double).
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

static void kernel_rand_29(DATA_TYPE A[restrict NK][NJ], DATA_TYPE B[restrict NJ][NI], DATA_TYPE C[restrict NI], DATA_TYPE D[restrict NJ], DATA_TYPE E[restrict NI], DATA_TYPE F[restrict NI][NK], DATA_TYPE G[restrict NJ][NK])
{
  int i, j, k;

#pragma scop
  for (k = 0; k < NK; k++)
    for (i = 0; i < NI; i++)
      for (j = 0; j < NJ; j++) {
        A[k][j] += 0.25 * B[j][i] * C[i];
        D[j] += 0.25 * E[i] * F[i][k];
      }
  for (k = 0; k < NK; k++)
    for (j = 0; j < NJ; j++)
      G[j][k] += 0.5 * A[k][j];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NJ] = corpus_alloc((size_t) NK * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  DATA_TYPE *C = corpus_alloc((size_t) NI, sizeof(DATA_TYPE));
  DATA_TYPE *D = corpus_alloc((size_t) NJ, sizeof(DATA_TYPE));
  DATA_TYPE *E = corpus_alloc((size_t) NI, sizeof(DATA_TYPE));
  DATA_TYPE (*F)[NK] = corpus_alloc((size_t) NI * NK, sizeof(DATA_TYPE));
  DATA_TYPE (*G)[NK] = corpus_alloc((size_t) NJ * NK, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NK * NJ, 0);
  corpus_init(&B[0][0], (size_t) NJ * NI, 1);
  corpus_init(C, (size_t) NI, 2);
  corpus_init(D, (size_t) NJ, 3);
  corpus_init(E, (size_t) NI, 4);
  corpus_init(&F[0][0], (size_t) NI * NK, 5);
  corpus_init(&G[0][0], (size_t) NJ * NK, 6);
  kernel_rand_29(A, B, C, D, E, F, G);
  corpus_dump("A", &A[0][0], (size_t) NK * NJ);
  corpus_dump("D", D, (size_t) NJ);
  corpus_dump("G", &G[0][0], (size_t) NJ * NK);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  free((void *) E);
  free((void *) F);
  free((void *) G);
  return 0;
}
