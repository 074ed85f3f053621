/* rand-17: Random affine nest 17 (depth 4, order l, k, i, j, triangular, double).
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NI=8..512, NJ=8..512, NK=8..512, NL=8..512 */
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

static void kernel_rand_17(DATA_TYPE A[restrict NJ][NI], DATA_TYPE B[restrict NL][NI], DATA_TYPE C[restrict NJ][NI], DATA_TYPE D[restrict NJ][NK], DATA_TYPE E[restrict NI + 2][NJ], DATA_TYPE F[restrict NJ + 2][NK + 1], DATA_TYPE G[restrict NI][NJ])
{
  int i, j, k, l;

#pragma scop
  for (l = 0; l < NL; l++)
    for (k = l; k < NK; k++)
      for (i = 0; i < NI; i++)
        for (j = 0; j < NJ; j++) {
          A[j][i] += 1.5 * B[l][i] * C[j][i];
          D[j][k] = D[j][k] + 0.2 * E[i + 2][j] + 0.3 * F[j + 2][k + 1];
        }
  for (j = 0; j < NJ; j++)
    for (i = 0; i < NI; i++)
      G[i][j] += 0.5 * A[j][i];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NI] = corpus_alloc((size_t) NL * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*D)[NK] = corpus_alloc((size_t) NJ * NK, sizeof(DATA_TYPE));
  DATA_TYPE (*E)[NJ] = corpus_alloc((size_t) (NI + 2) * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*F)[NK + 1] = corpus_alloc((size_t) (NJ + 2) * (NK + 1), sizeof(DATA_TYPE));
  DATA_TYPE (*G)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NJ * NI, 0);
  corpus_init(&B[0][0], (size_t) NL * NI, 1);
  corpus_init(&C[0][0], (size_t) NJ * NI, 2);
  corpus_init(&D[0][0], (size_t) NJ * NK, 3);
  corpus_init(&E[0][0], (size_t) (NI + 2) * NJ, 4);
  corpus_init(&F[0][0], (size_t) (NJ + 2) * (NK + 1), 5);
  corpus_init(&G[0][0], (size_t) NI * NJ, 6);
  kernel_rand_17(A, B, C, D, E, F, G);
  corpus_dump("A", &A[0][0], (size_t) NJ * NI);
  corpus_dump("D", &D[0][0], (size_t) NJ * NK);
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
