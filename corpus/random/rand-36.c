/* rand-36: Random affine nest 36 (depth 4, order k, l, i, j, double).
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

static void kernel_rand_36(DATA_TYPE A[restrict NL][NK], DATA_TYPE B[restrict NI][NJ], DATA_TYPE C[restrict NJ][NK], DATA_TYPE D[restrict NK][NL])
{
  int i, j, k, l;

#pragma scop
  for (k = 0; k < NK; k++)
    for (l = 0; l < NL; l++)
      for (i = 0; i < NI; i++)
        for (j = 0; j < NJ; j++)
          A[l][k] += 0.5 * B[i][j] * C[j][k];
  for (l = 0; l < NL; l++)
    for (k = 0; k < NK; k++)
      D[k][l] += 0.5 * A[l][k];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NK] = corpus_alloc((size_t) NL * NK, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NK] = corpus_alloc((size_t) NJ * NK, sizeof(DATA_TYPE));
  DATA_TYPE (*D)[NL] = corpus_alloc((size_t) NK * NL, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NL * NK, 0);
  corpus_init(&B[0][0], (size_t) NI * NJ, 1);
  corpus_init(&C[0][0], (size_t) NJ * NK, 2);
  corpus_init(&D[0][0], (size_t) NK * NL, 3);
  kernel_rand_36(A, B, C, D);
  corpus_dump("A", &A[0][0], (size_t) NL * NK);
  corpus_dump("D", &D[0][0], (size_t) NK * NL);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  return 0;
}
