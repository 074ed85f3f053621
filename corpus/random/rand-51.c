/* rand-51: Random affine nest 51 (depth 3, order i, j, k, double).
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

static void kernel_rand_51(DATA_TYPE A[restrict NI][NK], DATA_TYPE B[restrict NI][NJ], DATA_TYPE C[restrict NI], DATA_TYPE D[restrict NK][NJ], DATA_TYPE E[restrict NI + 2], DATA_TYPE F[restrict NK][NI + 1])
{
  int i, j, k;

#pragma scop
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      for (k = 0; k < NK; k++) {
        A[i][k] += 0.5 * B[i][j] * C[i];
        D[k][j] = D[k][j] + 0.3 * E[i + 2] + 0.3 * F[k][i + 1];
      }
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NK] = corpus_alloc((size_t) NI * NK, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  DATA_TYPE *C = corpus_alloc((size_t) NI, sizeof(DATA_TYPE));
  DATA_TYPE (*D)[NJ] = corpus_alloc((size_t) NK * NJ, sizeof(DATA_TYPE));
  DATA_TYPE *E = corpus_alloc((size_t) (NI + 2), sizeof(DATA_TYPE));
  DATA_TYPE (*F)[NI + 1] = corpus_alloc((size_t) NK * (NI + 1), sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NI * NK, 0);
  corpus_init(&B[0][0], (size_t) NI * NJ, 1);
  corpus_init(C, (size_t) NI, 2);
  corpus_init(&D[0][0], (size_t) NK * NJ, 3);
  corpus_init(E, (size_t) (NI + 2), 4);
  corpus_init(&F[0][0], (size_t) NK * (NI + 1), 5);
  kernel_rand_51(A, B, C, D, E, F);
  corpus_dump("A", &A[0][0], (size_t) NI * NK);
  corpus_dump("D", &D[0][0], (size_t) NK * NJ);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  free((void *) E);
  free((void *) F);
  return 0;
}
