/* rand-78: Random affine nest 78 (depth 3, order j, i, k, double).
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

static void kernel_rand_78(DATA_TYPE A[restrict NK], DATA_TYPE B[restrict NI][NJ])
{
  int i, j, k;

#pragma scop
  for (j = 0; j < NJ; j++)
    for (i = 0; i < NI; i++)
      for (k = 0; k < NK; k++)
        A[k] += 1.5 * B[i][j];
#pragma endscop
}

int main(void)
{
  DATA_TYPE *A = corpus_alloc((size_t) NK, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  corpus_init(A, (size_t) NK, 0);
  corpus_init(&B[0][0], (size_t) NI * NJ, 1);
  kernel_rand_78(A, B);
  corpus_dump("A", A, (size_t) NK);
  free((void *) A);
  free((void *) B);
  return 0;
}
