/* rand-03: Random affine nest 3 (depth 4, order i, l, k, j, double).
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

static void kernel_rand_03(DATA_TYPE A[restrict NI][NL], DATA_TYPE B[restrict NJ + 1], DATA_TYPE C[restrict NK + 1][NJ], DATA_TYPE D[restrict NI][NL], DATA_TYPE E[restrict NL][NJ], DATA_TYPE F[restrict NL][NI], DATA_TYPE G[restrict NL][NI])
{
  int i, j, k, l;

#pragma scop
  for (i = 0; i < NI; i++)
    for (l = 0; l < NL; l++)
      for (k = 0; k < NK; k++)
        for (j = 0; j < NJ; j++) {
          A[i][l] = A[i][l] + 0.1 * B[j + 1] + 0.3 * C[k + 1][j];
          D[i][l] += 0.5 * E[l][j] * F[l][i];
        }
  for (i = 0; i < NI; i++)
    for (l = 0; l < NL; l++)
      G[l][i] += 0.5 * A[i][l];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NL] = corpus_alloc((size_t) NI * NL, sizeof(DATA_TYPE));
  DATA_TYPE *B = corpus_alloc((size_t) (NJ + 1), sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NJ] = corpus_alloc((size_t) (NK + 1) * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*D)[NL] = corpus_alloc((size_t) NI * NL, sizeof(DATA_TYPE));
  DATA_TYPE (*E)[NJ] = corpus_alloc((size_t) NL * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*F)[NI] = corpus_alloc((size_t) NL * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*G)[NI] = corpus_alloc((size_t) NL * NI, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NI * NL, 0);
  corpus_init(B, (size_t) (NJ + 1), 1);
  corpus_init(&C[0][0], (size_t) (NK + 1) * NJ, 2);
  corpus_init(&D[0][0], (size_t) NI * NL, 3);
  corpus_init(&E[0][0], (size_t) NL * NJ, 4);
  corpus_init(&F[0][0], (size_t) NL * NI, 5);
  corpus_init(&G[0][0], (size_t) NL * NI, 6);
  kernel_rand_03(A, B, C, D, E, F, G);
  corpus_dump("A", &A[0][0], (size_t) NI * NL);
  corpus_dump("D", &D[0][0], (size_t) NI * NL);
  corpus_dump("G", &G[0][0], (size_t) NL * NI);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  free((void *) E);
  free((void *) F);
  free((void *) G);
  return 0;
}
