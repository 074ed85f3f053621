/* rand-11: Random affine nest 11 (depth 4, order k, i, j, l, triangular, double).
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

static void kernel_rand_11(DATA_TYPE A[restrict NK][NL], DATA_TYPE B[restrict NI][NL], DATA_TYPE C[restrict NK][NJ], DATA_TYPE D[restrict NK][NJ], DATA_TYPE E[restrict NI][NK], DATA_TYPE F[restrict NL][NK])
{
  int i, j, k, l;

#pragma scop
  for (k = 0; k < NK; k++)
    for (i = k; i < NI; i++)
      for (j = 0; j < NJ; j++)
        for (l = 0; l < NL; l++) {
          A[k][l] += 1.5 * B[i][l] * C[k][j];
          D[k][j] += 1.5 * E[i][k];
        }
  for (k = 0; k < NK; k++)
    for (l = 0; l < NL; l++)
      F[l][k] += 0.5 * A[k][l];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NL] = corpus_alloc((size_t) NK * NL, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NL] = corpus_alloc((size_t) NI * NL, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NJ] = corpus_alloc((size_t) NK * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*D)[NJ] = corpus_alloc((size_t) NK * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*E)[NK] = corpus_alloc((size_t) NI * NK, sizeof(DATA_TYPE));
  DATA_TYPE (*F)[NK] = corpus_alloc((size_t) NL * NK, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NK * NL, 0);
  corpus_init(&B[0][0], (size_t) NI * NL, 1);
  corpus_init(&C[0][0], (size_t) NK * NJ, 2);
  corpus_init(&D[0][0], (size_t) NK * NJ, 3);
  corpus_init(&E[0][0], (size_t) NI * NK, 4);
  corpus_init(&F[0][0], (size_t) NL * NK, 5);
  kernel_rand_11(A, B, C, D, E, F);
  corpus_dump("A", &A[0][0], (size_t) NK * NL);
  corpus_dump("D", &D[0][0], (size_t) NK * NJ);
  corpus_dump("F", &F[0][0], (size_t) NL * NK);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  free((void *) E);
  free((void *) F);
  return 0;
}
