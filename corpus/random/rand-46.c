/* rand-46: Random affine nest 46 (depth 4, order l, i, k, j, double).
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

static void kernel_rand_46(DATA_TYPE A[restrict NK][NJ], DATA_TYPE B[restrict NI][NL], DATA_TYPE C[restrict NI], DATA_TYPE D[restrict NK][NL], DATA_TYPE E[restrict NK + 2][NI + 1])
{
  int i, j, k, l;

#pragma scop
  for (l = 0; l < NL; l++)
    for (i = 0; i < NI; i++)
      for (k = 0; k < NK; k++)
        for (j = 0; j < NJ; j++) {
          A[k][j] += 1.5 * B[i][l] * C[i];
          D[k][l] = D[k][l] + 0.3 * E[k + 2][i + 1];
        }
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NJ] = corpus_alloc((size_t) NK * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NL] = corpus_alloc((size_t) NI * NL, sizeof(DATA_TYPE));
  DATA_TYPE *C = corpus_alloc((size_t) NI, sizeof(DATA_TYPE));
  DATA_TYPE (*D)[NL] = corpus_alloc((size_t) NK * NL, sizeof(DATA_TYPE));
  DATA_TYPE (*E)[NI + 1] = corpus_alloc((size_t) (NK + 2) * (NI + 1), sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NK * NJ, 0);
  corpus_init(&B[0][0], (size_t) NI * NL, 1);
  corpus_init(C, (size_t) NI, 2);
  corpus_init(&D[0][0], (size_t) NK * NL, 3);
  corpus_init(&E[0][0], (size_t) (NK + 2) * (NI + 1), 4);
  kernel_rand_46(A, B, C, D, E);
  corpus_dump("A", &A[0][0], (size_t) NK * NJ);
  corpus_dump("D", &D[0][0], (size_t) NK * NL);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  free((void *) E);
  return 0;
}
