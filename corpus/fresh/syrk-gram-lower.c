/* syrk-gram-lower: Lower triangle of C += A^T * A with A stored K x N, order k, i, j (rank-1 updates of a triangle).
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: N=32..2048, M=32..2048 */
#include <corpus.h>

#ifdef TSS_SMALL
# define N 39
# define M 33
#endif
#ifndef N
# define N 1000
#endif
#ifndef M
# define M 900
#endif

static void kernel_syrk_gram_lower(DATA_TYPE C[restrict N][N], DATA_TYPE A[restrict M][N])
{
  int i, j, k;

#pragma scop
  for (k = 0; k < M; k++)
    for (i = 0; i < N; i++)
      for (j = 0; j <= i; j++)
        C[i][j] += A[k][i] * A[k][j];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*C)[N] = corpus_alloc((size_t) N * N, sizeof(DATA_TYPE));
  DATA_TYPE (*A)[N] = corpus_alloc((size_t) M * N, sizeof(DATA_TYPE));
  corpus_init(&C[0][0], (size_t) N * N, 0);
  corpus_init(&A[0][0], (size_t) M * N, 1);
  kernel_syrk_gram_lower(C, A);
  corpus_dump("C", &C[0][0], (size_t) N * N);
  free((void *) C);
  free((void *) A);
  return 0;
}
