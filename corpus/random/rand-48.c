/* rand-48: Random affine nest 48 (depth 3, order i, k, j, double).
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

static void kernel_rand_48(DATA_TYPE A[restrict NI], DATA_TYPE B[restrict NI][NJ], DATA_TYPE C[restrict NI][NJ], DATA_TYPE D[restrict NI], DATA_TYPE E[restrict NK], DATA_TYPE F[restrict NK])
{
  int i, j, k;

#pragma scop
  for (i = 0; i < NI; i++)
    for (k = 0; k < NK; k++)
      for (j = 0; j < NJ; j++) {
        A[i] += 1.5 * B[i][j] * C[i][j];
        D[i] += 1.5 * E[k] * F[k];
      }
#pragma endscop
}

int main(void)
{
  DATA_TYPE *A = corpus_alloc((size_t) NI, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  DATA_TYPE *D = corpus_alloc((size_t) NI, sizeof(DATA_TYPE));
  DATA_TYPE *E = corpus_alloc((size_t) NK, sizeof(DATA_TYPE));
  DATA_TYPE *F = corpus_alloc((size_t) NK, sizeof(DATA_TYPE));
  corpus_init(A, (size_t) NI, 0);
  corpus_init(&B[0][0], (size_t) NI * NJ, 1);
  corpus_init(&C[0][0], (size_t) NI * NJ, 2);
  corpus_init(D, (size_t) NI, 3);
  corpus_init(E, (size_t) NK, 4);
  corpus_init(F, (size_t) NK, 5);
  kernel_rand_48(A, B, C, D, E, F);
  corpus_dump("A", A, (size_t) NI);
  corpus_dump("D", D, (size_t) NI);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  free((void *) E);
  free((void *) F);
  return 0;
}
