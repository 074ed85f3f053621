/* rand-40: Random affine nest 40 (depth 3, order j, k, i, triangular, double).
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

static void kernel_rand_40(DATA_TYPE A[restrict NJ][NK], DATA_TYPE B[restrict NJ][NI], DATA_TYPE C[restrict NJ][NI], DATA_TYPE D[restrict NI][NK], DATA_TYPE E[restrict NJ], DATA_TYPE F[restrict NK][NI])
{
  int i, j, k;

#pragma scop
  for (j = 0; j < NJ; j++)
    for (k = j; k < NK; k++)
      for (i = 0; i < NI; i++) {
        A[j][k] += 0.5 * B[j][i] * C[j][i];
        D[i][k] += 1.5 * E[j] * F[k][i];
      }
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NK] = corpus_alloc((size_t) NJ * NK, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*D)[NK] = corpus_alloc((size_t) NI * NK, sizeof(DATA_TYPE));
  DATA_TYPE *E = corpus_alloc((size_t) NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*F)[NI] = corpus_alloc((size_t) NK * NI, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NJ * NK, 0);
  corpus_init(&B[0][0], (size_t) NJ * NI, 1);
  corpus_init(&C[0][0], (size_t) NJ * NI, 2);
  corpus_init(&D[0][0], (size_t) NI * NK, 3);
  corpus_init(E, (size_t) NJ, 4);
  corpus_init(&F[0][0], (size_t) NK * NI, 5);
  kernel_rand_40(A, B, C, D, E, F);
  corpus_dump("A", &A[0][0], (size_t) NJ * NK);
  corpus_dump("D", &D[0][0], (size_t) NI * NK);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  free((void *) E);
  free((void *) F);
  return 0;
}
