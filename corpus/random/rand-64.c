/* rand-64: Random affine nest 64 (depth 3, order j, i, k, double).
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

static void kernel_rand_64(DATA_TYPE A[restrict NI][NK], DATA_TYPE B[restrict NJ], DATA_TYPE C[restrict NJ][NI], DATA_TYPE D[restrict NK][NI])
{
  int i, j, k;

#pragma scop
  for (j = 0; j < NJ; j++)
    for (i = 0; i < NI; i++)
      for (k = 0; k < NK; k++)
        A[i][k] += 1.5 * B[j] * C[j][i];
  for (i = 0; i < NI; i++)
    for (k = 0; k < NK; k++)
      D[k][i] += 0.5 * A[i][k];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NK] = corpus_alloc((size_t) NI * NK, sizeof(DATA_TYPE));
  DATA_TYPE *B = corpus_alloc((size_t) NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*D)[NI] = corpus_alloc((size_t) NK * NI, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NI * NK, 0);
  corpus_init(B, (size_t) NJ, 1);
  corpus_init(&C[0][0], (size_t) NJ * NI, 2);
  corpus_init(&D[0][0], (size_t) NK * NI, 3);
  kernel_rand_64(A, B, C, D);
  corpus_dump("A", &A[0][0], (size_t) NI * NK);
  corpus_dump("D", &D[0][0], (size_t) NK * NI);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  return 0;
}
