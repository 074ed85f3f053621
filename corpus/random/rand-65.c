/* rand-65: Random affine nest 65 (depth 4, order j, l, i, k, double).
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

static void kernel_rand_65(DATA_TYPE A[restrict NJ][NI], DATA_TYPE B[restrict NK][NI], DATA_TYPE C[restrict NK][NL])
{
  int i, j, k, l;

#pragma scop
  for (j = 0; j < NJ; j++)
    for (l = 0; l < NL; l++)
      for (i = 0; i < NI; i++)
        for (k = 0; k < NK; k++)
          A[j][i] += 0.25 * B[k][i] * C[k][l];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NI] = corpus_alloc((size_t) NK * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NL] = corpus_alloc((size_t) NK * NL, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NJ * NI, 0);
  corpus_init(&B[0][0], (size_t) NK * NI, 1);
  corpus_init(&C[0][0], (size_t) NK * NL, 2);
  kernel_rand_65(A, B, C);
  corpus_dump("A", &A[0][0], (size_t) NJ * NI);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  return 0;
}
