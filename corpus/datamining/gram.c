/* gram: Gram matrix G = X^T X of N samples of M features, order k, i, j (rank-1 updates).
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: M=32..2048, N=32..2048 */
#include <corpus.h>

#ifdef TSS_SMALL
# define M 33
# define N 39
#endif
#ifndef M
# define M 1000
#endif
#ifndef N
# define N 1200
#endif

static void kernel_gram(DATA_TYPE G[restrict M][M], DATA_TYPE X[restrict N][M])
{
  int i, j, k;

#pragma scop
  for (k = 0; k < N; k++)
    for (i = 0; i < M; i++)
      for (j = 0; j < M; j++)
        G[i][j] += X[k][i] * X[k][j];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*G)[M] = corpus_alloc((size_t) M * M, sizeof(DATA_TYPE));
  DATA_TYPE (*X)[M] = corpus_alloc((size_t) N * M, sizeof(DATA_TYPE));
  corpus_init(&G[0][0], (size_t) M * M, 0);
  corpus_init(&X[0][0], (size_t) N * M, 1);
  kernel_gram(G, X);
  corpus_dump("G", &G[0][0], (size_t) M * M);
  free((void *) G);
  free((void *) X);
  return 0;
}
