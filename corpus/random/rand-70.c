/* rand-70: Random affine nest 70 (depth 3, order k, j, i, double).
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

static void kernel_rand_70(DATA_TYPE A[restrict NJ], DATA_TYPE B[restrict NI], DATA_TYPE C[restrict NI][NK], DATA_TYPE D[restrict NK][NI], DATA_TYPE E[restrict NJ])
{
  int i, j, k;

#pragma scop
  for (k = 0; k < NK; k++)
    for (j = 0; j < NJ; j++)
      for (i = 0; i < NI; i++) {
        A[j] += 1.5 * B[i];
        C[i][k] += 0.25 * D[k][i];
      }
  for (j = 0; j < NJ; j++)
    E[j] += 0.5 * A[j];
#pragma endscop
}

int main(void)
{
  DATA_TYPE *A = corpus_alloc((size_t) NJ, sizeof(DATA_TYPE));
  DATA_TYPE *B = corpus_alloc((size_t) NI, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NK] = corpus_alloc((size_t) NI * NK, sizeof(DATA_TYPE));
  DATA_TYPE (*D)[NI] = corpus_alloc((size_t) NK * NI, sizeof(DATA_TYPE));
  DATA_TYPE *E = corpus_alloc((size_t) NJ, sizeof(DATA_TYPE));
  corpus_init(A, (size_t) NJ, 0);
  corpus_init(B, (size_t) NI, 1);
  corpus_init(&C[0][0], (size_t) NI * NK, 2);
  corpus_init(&D[0][0], (size_t) NK * NI, 3);
  corpus_init(E, (size_t) NJ, 4);
  kernel_rand_70(A, B, C, D, E);
  corpus_dump("A", A, (size_t) NJ);
  corpus_dump("C", &C[0][0], (size_t) NI * NK);
  corpus_dump("E", E, (size_t) NJ);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  free((void *) E);
  return 0;
}
