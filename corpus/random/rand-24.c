/* rand-24: Random affine nest 24 (depth 2, order j, i, double).
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

static void kernel_rand_24(DATA_TYPE A[restrict NJ][NI], DATA_TYPE B[restrict NI][NJ], DATA_TYPE C[restrict NJ], DATA_TYPE D[restrict NI], DATA_TYPE E[restrict NI], DATA_TYPE F[restrict NI], DATA_TYPE G[restrict NI][NJ])
{
  int i, j;

#pragma scop
  for (j = 0; j < NJ; j++)
    for (i = 0; i < NI; i++) {
      A[j][i] += 0.25 * B[i][j] * C[j];
      D[i] += 0.25 * E[i] * F[i];
    }
  for (j = 0; j < NJ; j++)
    for (i = 0; i < NI; i++)
      G[i][j] += 0.5 * A[j][i];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  DATA_TYPE *C = corpus_alloc((size_t) NJ, sizeof(DATA_TYPE));
  DATA_TYPE *D = corpus_alloc((size_t) NI, sizeof(DATA_TYPE));
  DATA_TYPE *E = corpus_alloc((size_t) NI, sizeof(DATA_TYPE));
  DATA_TYPE *F = corpus_alloc((size_t) NI, sizeof(DATA_TYPE));
  DATA_TYPE (*G)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NJ * NI, 0);
  corpus_init(&B[0][0], (size_t) NI * NJ, 1);
  corpus_init(C, (size_t) NJ, 2);
  corpus_init(D, (size_t) NI, 3);
  corpus_init(E, (size_t) NI, 4);
  corpus_init(F, (size_t) NI, 5);
  corpus_init(&G[0][0], (size_t) NI * NJ, 6);
  kernel_rand_24(A, B, C, D, E, F, G);
  corpus_dump("A", &A[0][0], (size_t) NJ * NI);
  corpus_dump("D", D, (size_t) NI);
  corpus_dump("G", &G[0][0], (size_t) NI * NJ);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  free((void *) E);
  free((void *) F);
  free((void *) G);
  return 0;
}
