/* rand-07: Random affine nest 7 (depth 3, order k, i, j, double).
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

static void kernel_rand_07(DATA_TYPE A[restrict NK][NI], DATA_TYPE B[restrict NI][NK + 1], DATA_TYPE C[restrict NK + 2], DATA_TYPE D[restrict NK], DATA_TYPE E[restrict NJ][NI], DATA_TYPE F[restrict NI])
{
  int i, j, k;

#pragma scop
  for (k = 0; k < NK; k++)
    for (i = 0; i < NI; i++)
      for (j = 0; j < NJ; j++) {
        A[k][i] = A[k][i] + 0.1 * B[i][k + 1] + 0.3 * C[k + 2];
        D[k] += 0.5 * E[j][i] * F[i];
      }
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NI] = corpus_alloc((size_t) NK * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NK + 1] = corpus_alloc((size_t) NI * (NK + 1), sizeof(DATA_TYPE));
  DATA_TYPE *C = corpus_alloc((size_t) (NK + 2), sizeof(DATA_TYPE));
  DATA_TYPE *D = corpus_alloc((size_t) NK, sizeof(DATA_TYPE));
  DATA_TYPE (*E)[NI] = corpus_alloc((size_t) NJ * NI, sizeof(DATA_TYPE));
  DATA_TYPE *F = corpus_alloc((size_t) NI, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) NK * NI, 0);
  corpus_init(&B[0][0], (size_t) NI * (NK + 1), 1);
  corpus_init(C, (size_t) (NK + 2), 2);
  corpus_init(D, (size_t) NK, 3);
  corpus_init(&E[0][0], (size_t) NJ * NI, 4);
  corpus_init(F, (size_t) NI, 5);
  kernel_rand_07(A, B, C, D, E, F);
  corpus_dump("A", &A[0][0], (size_t) NK * NI);
  corpus_dump("D", D, (size_t) NK);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  free((void *) E);
  free((void *) F);
  return 0;
}
