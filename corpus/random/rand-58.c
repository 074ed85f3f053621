/* rand-58: Random affine nest 58 (depth 4, order j, i, l, k, triangular, float).
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

static void kernel_rand_58(DATA_TYPE A[restrict NL][NK], DATA_TYPE B[restrict NJ], DATA_TYPE C[restrict NL], DATA_TYPE D[restrict NJ][NI], DATA_TYPE E[restrict NI][NJ], DATA_TYPE F[restrict NJ][NL], DATA_TYPE G[restrict NK][NL])
{
  int i, j, k, l;

#pragma scop
  for (j = 0; j < NJ; j++)
    for (i = j; i < NI; i++)
      for (l = 0; l < NL; l++)
        for (k = 0; k < NK; k++) {
          A[l][k] = A[l][k] + 0.2 * B[j] + 0.3 * C[l];
          D[j][i] += 0.25 * E[i][j] * F[j][l];
        }
  for (l = 0; l < NL; l++)
    for (k = 0; k < NK; k++)
      G[k][l] += 0.5 * A[l][k];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NK] = corpus_alloc((size_t) NL * NK, sizeof(DATA_TYPE));
  DATA_TYPE *B = corpus_alloc((size_t) NJ, sizeof(DATA_TYPE));
  DATA_TYPE *C = corpus_alloc((size_t) NL, sizeof(DATA_TYPE));
  DATA_TYPE (*D)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*E)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*F)[NL] = corpus_alloc((size_t) NJ * NL, sizeof(DATA_TYPE));
  DATA_TYPE (*G)[NL] = corpus_alloc((size_t) NK * NL, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NL * NK, 0);
  corpus_init(B, (size_t) NJ, 1);
  corpus_init(C, (size_t) NL, 2);
  corpus_init(&D[0][0], (size_t) NJ * NI, 3);
  corpus_init(&E[0][0], (size_t) NI * NJ, 4);
  corpus_init(&F[0][0], (size_t) NJ * NL, 5);
  corpus_init(&G[0][0], (size_t) NK * NL, 6);
  kernel_rand_58(A, B, C, D, E, F, G);
  corpus_dump("A", &A[0][0], (size_t) NL * NK);
  corpus_dump("D", &D[0][0], (size_t) NJ * NI);
  corpus_dump("G", &G[0][0], (size_t) NK * NL);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  free((void *) E);
  free((void *) F);
  free((void *) G);
  return 0;
}
