/* rand-37: Random affine nest 37 (depth 4, order j, l, k, i, triangular, float).
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NI=8..512, NJ=8..512, NK=8..512, NL=8..512 */
#define DATA_TYPE float
#include <corpus.h>

#ifdef TSS_SMALL
# define NI 37
# define NJ 29
# define NK 23
# define NL 19
#endif
#ifndef NI
# define NI 90
#endif
#ifndef NJ
# define NJ 90
#endif
#ifndef NK
# define NK 90
#endif
#ifndef NL
# define NL 90
#endif

static void kernel_rand_37(DATA_TYPE A[restrict NI][NJ], DATA_TYPE B[restrict NI][NK], DATA_TYPE C[restrict NI][NK], DATA_TYPE D[restrict NL], DATA_TYPE E[restrict NL][NI], DATA_TYPE F[restrict NL][NK], DATA_TYPE G[restrict NJ][NI])
{
  int i, j, k, l;

#pragma scop
  for (j = 0; j < NJ; j++)
    for (l = j; l < NL; l++)
      for (k = 0; k < NK; k++)
        for (i = 0; i < NI; i++) {
          A[i][j] += 1.5 * B[i][k] * C[i][k];
          D[l] += 1.5 * E[l][i] * F[l][k];
        }
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      G[j][i] += 0.5 * A[i][j];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NK] = corpus_alloc((size_t) NI * NK, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NK] = corpus_alloc((size_t) NI * NK, sizeof(DATA_TYPE));
  DATA_TYPE *D = corpus_alloc((size_t) NL, sizeof(DATA_TYPE));
  DATA_TYPE (*E)[NI] = corpus_alloc((size_t) NL * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*F)[NK] = corpus_alloc((size_t) NL * NK, sizeof(DATA_TYPE));
  DATA_TYPE (*G)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NI * NJ, 0);
  corpus_init(&B[0][0], (size_t) NI * NK, 1);
  corpus_init(&C[0][0], (size_t) NI * NK, 2);
  corpus_init(D, (size_t) NL, 3);
  corpus_init(&E[0][0], (size_t) NL * NI, 4);
  corpus_init(&F[0][0], (size_t) NL * NK, 5);
  corpus_init(&G[0][0], (size_t) NJ * NI, 6);
  kernel_rand_37(A, B, C, D, E, F, G);
  corpus_dump("A", &A[0][0], (size_t) NI * NJ);
  corpus_dump("D", D, (size_t) NL);
  corpus_dump("G", &G[0][0], (size_t) NJ * NI);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  free((void *) E);
  free((void *) F);
  free((void *) G);
  return 0;
}
