/* rand-31: Random affine nest 31 (depth 3, order j, i, k, float).
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

static void kernel_rand_31(DATA_TYPE A[restrict NJ], DATA_TYPE B[restrict NK], DATA_TYPE C[restrict NK][NJ], DATA_TYPE D[restrict NI], DATA_TYPE E[restrict NI][NK], DATA_TYPE F[restrict NJ][NK], DATA_TYPE G[restrict NJ])
{
  int i, j, k;

#pragma scop
  for (j = 0; j < NJ; j++)
    for (i = 0; i < NI; i++)
      for (k = 0; k < NK; k++) {
        A[j] += 0.5 * B[k] * C[k][j];
        D[i] += 1.5 * E[i][k] * F[j][k];
      }
  for (j = 0; j < NJ; j++)
    G[j] += 0.5 * A[j];
#pragma endscop
}

int main(void)
{
  DATA_TYPE *A = corpus_alloc((size_t) NJ, sizeof(DATA_TYPE));
  DATA_TYPE *B = corpus_alloc((size_t) NK, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NJ] = corpus_alloc((size_t) NK * NJ, sizeof(DATA_TYPE));
  DATA_TYPE *D = corpus_alloc((size_t) NI, sizeof(DATA_TYPE));
  DATA_TYPE (*E)[NK] = corpus_alloc((size_t) NI * NK, sizeof(DATA_TYPE));
  DATA_TYPE (*F)[NK] = corpus_alloc((size_t) NJ * NK, sizeof(DATA_TYPE));
  DATA_TYPE *G = corpus_alloc((size_t) NJ, sizeof(DATA_TYPE));
  corpus_init(A, (size_t) NJ, 0);
  corpus_init(B, (size_t) NK, 1);
  corpus_init(&C[0][0], (size_t) NK * NJ, 2);
  corpus_init(D, (size_t) NI, 3);
  corpus_init(&E[0][0], (size_t) NI * NK, 4);
  corpus_init(&F[0][0], (size_t) NJ * NK, 5);
  corpus_init(G, (size_t) NJ, 6);
  kernel_rand_31(A, B, C, D, E, F, G);
  corpus_dump("A", A, (size_t) NJ);
  corpus_dump("D", D, (size_t) NI);
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
