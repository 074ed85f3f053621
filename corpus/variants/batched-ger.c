/* batched-ger: A[b] += x[b] y[b]^T: a batch of independent rank-1 updates.
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NB=1..512, NI=16..2048, NJ=16..2048 */
#include <corpus.h>

#ifdef TSS_SMALL
# define NB 3
# define NI 13
# define NJ 17
#endif
#ifndef NB
# define NB 64
#endif
#ifndef NI
# define NI 256
#endif
#ifndef NJ
# define NJ 256
#endif

static void kernel_batched_ger(DATA_TYPE A[restrict NB][NI][NJ], DATA_TYPE x[restrict NB][NI], DATA_TYPE y[restrict NB][NJ])
{
  int b, i, j;

#pragma scop
  for (b = 0; b < NB; b++)
    for (i = 0; i < NI; i++)
      for (j = 0; j < NJ; j++)
        A[b][i][j] += x[b][i] * y[b][j];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NI][NJ] = corpus_alloc((size_t) NB * NI * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*x)[NI] = corpus_alloc((size_t) NB * NI, sizeof(DATA_TYPE));
  DATA_TYPE (*y)[NJ] = corpus_alloc((size_t) NB * NJ, sizeof(DATA_TYPE));
  corpus_init(&A[0][0][0], (size_t) NB * NI * NJ, 0);
  corpus_init(&x[0][0], (size_t) NB * NI, 1);
  corpus_init(&y[0][0], (size_t) NB * NJ, 2);
  kernel_batched_ger(A, x, y);
  corpus_dump("A", &A[0][0][0], (size_t) NB * NI * NJ);
  free((void *) A);
  free((void *) x);
  free((void *) y);
  return 0;
}
