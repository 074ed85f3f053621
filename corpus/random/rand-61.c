/* rand-61: Random affine nest 61 (depth 4, order i, k, j, l, double).
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NI=8..512, NJ=8..512, NK=8..512, NL=8..512 */
#include <corpus.h>

#ifdef TSS_SMALL
# define NI 37
# define NJ 29
# define NK 23
# define NL 19
#endif
#ifndef NI
# define NI 90
#endif
#ifndef NJ
# define NJ 90
#endif
#ifndef NK
# define NK 90
#endif
#ifndef NL
# define NL 90
#endif

static void kernel_rand_61(DATA_TYPE A[restrict NL][NI], DATA_TYPE B[restrict NL + 1][NI], DATA_TYPE C[restrict NK], DATA_TYPE D[restrict NK][NJ])
{
  int i, j, k, l;

#pragma scop
  for (i = 0; i < NI; i++)
    for (k = 0; k < NK; k++)
      for (j = 0; j < NJ; j++)
        for (l = 0; l < NL; l++) {
          A[l][i] = A[l][i] + 0.2 * B[l + 1][i];
          C[k] += 0.5 * D[k][j];
        }
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NI] = corpus_alloc((size_t) NL * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NI] = corpus_alloc((size_t) (NL + 1) * NI, sizeof(DATA_TYPE));
  DATA_TYPE *C = corpus_alloc((size_t) NK, sizeof(DATA_TYPE));
  DATA_TYPE (*D)[NJ] = corpus_alloc((size_t) NK * NJ, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NL * NI, 0);
  corpus_init(&B[0][0], (size_t) (NL + 1) * NI, 1);
  corpus_init(C, (size_t) NK, 2);
  corpus_init(&D[0][0], (size_t) NK * NJ, 3);
  kernel_rand_61(A, B, C, D);
  corpus_dump("A", &A[0][0], (size_t) NL * NI);
  corpus_dump("C", C, (size_t) NK);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  return 0;
}
