/* rand-71: Random affine nest 71 (depth 3, order k, j, i, double).
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

static void kernel_rand_71(DATA_TYPE A[restrict NJ][NI], DATA_TYPE B[restrict NK][NI], DATA_TYPE C[restrict NI])
{
  int i, j, k;

#pragma scop
  for (k = 0; k < NK; k++)
    for (j = 0; j < NJ; j++)
      for (i = 0; i < NI; i++)
        A[j][i] += 0.25 * B[k][i] * C[i];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NI] = corpus_alloc((size_t) NK * NI, sizeof(DATA_TYPE));
  DATA_TYPE *C = corpus_alloc((size_t) NI, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NJ * NI, 0);
  corpus_init(&B[0][0], (size_t) NK * NI, 1);
  corpus_init(C, (size_t) NI, 2);
  kernel_rand_71(A, B, C);
  corpus_dump("A", &A[0][0], (size_t) NJ * NI);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  return 0;
}
