/* rand-43: Random affine nest 43 (depth 3, order j, i, k, triangular, double).
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

static void kernel_rand_43(DATA_TYPE A[restrict NJ][NI], DATA_TYPE B[restrict NK][NI], DATA_TYPE C[restrict NJ][NI], DATA_TYPE D[restrict NI][NJ], DATA_TYPE E[restrict NK])
{
  int i, j, k;

#pragma scop
  for (j = 0; j < NJ; j++)
    for (i = j; i < NI; i++)
      for (k = 0; k < NK; k++) {
        A[j][i] += 0.5 * B[k][i] * C[j][i];
        D[i][j] += 1.5 * E[k];
      }
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NI] = corpus_alloc((size_t) NK * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*D)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  DATA_TYPE *E = corpus_alloc((size_t) NK, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NJ * NI, 0);
  corpus_init(&B[0][0], (size_t) NK * NI, 1);
  corpus_init(&C[0][0], (size_t) NJ * NI, 2);
  corpus_init(&D[0][0], (size_t) NI * NJ, 3);
  corpus_init(E, (size_t) NK, 4);
  kernel_rand_43(A, B, C, D, E);
  corpus_dump("A", &A[0][0], (size_t) NJ * NI);
  corpus_dump("D", &D[0][0], (size_t) NI * NJ);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  free((void *) E);
  return 0;
}
