/* rand-53: Random affine nest 53 (depth 3, order j, i, k, triangular, double).
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

static void kernel_rand_53(DATA_TYPE A[restrict NJ][NK], DATA_TYPE B[restrict NJ], DATA_TYPE C[restrict NI + 1], DATA_TYPE D[restrict NK][NJ])
{
  int i, j, k;

#pragma scop
  for (j = 0; j < NJ; j++)
    for (i = j; i < NI; i++)
      for (k = 0; k < NK; k++)
        A[j][k] = A[j][k] + 0.3 * B[j] + 0.1 * C[i + 1];
  for (j = 0; j < NJ; j++)
    for (k = 0; k < NK; k++)
      D[k][j] += 0.5 * A[j][k];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NK] = corpus_alloc((size_t) NJ * NK, sizeof(DATA_TYPE));
  DATA_TYPE *B = corpus_alloc((size_t) NJ, sizeof(DATA_TYPE));
  DATA_TYPE *C = corpus_alloc((size_t) (NI + 1), sizeof(DATA_TYPE));
  DATA_TYPE (*D)[NJ] = corpus_alloc((size_t) NK * NJ, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NJ * NK, 0);
  corpus_init(B, (size_t) NJ, 1);
  corpus_init(C, (size_t) (NI + 1), 2);
  corpus_init(&D[0][0], (size_t) NK * NJ, 3);
  kernel_rand_53(A, B, C, D);
  corpus_dump("A", &A[0][0], (size_t) NJ * NK);
  corpus_dump("D", &D[0][0], (size_t) NK * NJ);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  return 0;
}
