/* rand-27: Random affine nest 27 (depth 3, order j, k, i, double).
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

static void kernel_rand_27(DATA_TYPE A[restrict NI][NK], DATA_TYPE B[restrict NI], DATA_TYPE C[restrict NJ][NI], DATA_TYPE D[restrict NI][NJ], DATA_TYPE E[restrict NK][NJ], DATA_TYPE F[restrict NI])
{
  int i, j, k;

#pragma scop
  for (j = 0; j < NJ; j++)
    for (k = 0; k < NK; k++)
      for (i = 0; i < NI; i++) {
        A[i][k] = A[i][k] + 0.3 * B[i] + 0.1 * C[j][i];
        D[i][j] += 0.25 * E[k][j] * F[i];
      }
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NK] = corpus_alloc((size_t) NI * NK, sizeof(DATA_TYPE));
  DATA_TYPE *B = corpus_alloc((size_t) NI, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*D)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*E)[NJ] = corpus_alloc((size_t) NK * NJ, sizeof(DATA_TYPE));
  DATA_TYPE *F = corpus_alloc((size_t) NI, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NI * NK, 0);
  corpus_init(B, (size_t) NI, 1);
  corpus_init(&C[0][0], (size_t) NJ * NI, 2);
  corpus_init(&D[0][0], (size_t) NI * NJ, 3);
  corpus_init(&E[0][0], (size_t) NK * NJ, 4);
  corpus_init(F, (size_t) NI, 5);
  kernel_rand_27(A, B, C, D, E, F);
  corpus_dump("A", &A[0][0], (size_t) NI * NK);
  corpus_dump("D", &D[0][0], (size_t) NI * NJ);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  free((void *) E);
  free((void *) F);
  return 0;
}
