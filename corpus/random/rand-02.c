/* rand-02: Random affine nest 2 (depth 3, order j, k, i, float).
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

static void kernel_rand_02(DATA_TYPE A[restrict NJ], DATA_TYPE B[restrict NK][NI], DATA_TYPE C[restrict NJ], DATA_TYPE D[restrict NK], DATA_TYPE E[restrict NI][NK], DATA_TYPE F[restrict NI][NK], DATA_TYPE G[restrict NJ])
{
  int i, j, k;

#pragma scop
  for (j = 0; j < NJ; j++)
    for (k = 0; k < NK; k++)
      for (i = 0; i < NI; i++) {
        A[j] += 0.5 * B[k][i] * C[j];
        D[k] += 0.25 * E[i][k] * F[i][k];
      }
  for (j = 0; j < NJ; j++)
    G[j] += 0.5 * A[j];
#pragma endscop
}

int main(void)
{
  DATA_TYPE *A = corpus_alloc((size_t) NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NI] = corpus_alloc((size_t) NK * NI, sizeof(DATA_TYPE));
  DATA_TYPE *C = corpus_alloc((size_t) NJ, sizeof(DATA_TYPE));
  DATA_TYPE *D = corpus_alloc((size_t) NK, sizeof(DATA_TYPE));
  DATA_TYPE (*E)[NK] = corpus_alloc((size_t) NI * NK, sizeof(DATA_TYPE));
  DATA_TYPE (*F)[NK] = corpus_alloc((size_t) NI * NK, sizeof(DATA_TYPE));
  DATA_TYPE *G = corpus_alloc((size_t) NJ, sizeof(DATA_TYPE));
  corpus_init(A, (size_t) NJ, 0);
  corpus_init(&B[0][0], (size_t) NK * NI, 1);
  corpus_init(C, (size_t) NJ, 2);
  corpus_init(D, (size_t) NK, 3);
  corpus_init(&E[0][0], (size_t) NI * NK, 4);
  corpus_init(&F[0][0], (size_t) NI * NK, 5);
  corpus_init(G, (size_t) NJ, 6);
  kernel_rand_02(A, B, C, D, E, F, G);
  corpus_dump("A", A, (size_t) NJ);
  corpus_dump("D", D, (size_t) NK);
  corpus_dump("G", G, (size_t) NJ);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  free((void *) E);
  free((void *) F);
  free((void *) G);
  return 0;
}
