/* syr-lower: Symmetric rank-1 update of a lower triangle: A[i][j] += alpha * x[i] * x[j], j <= i.
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: N=64..8192 */
#include <corpus.h>

#ifdef TSS_SMALL
# define N 41
#endif
#ifndef N
# define N 3000
#endif

static void kernel_syr_lower(DATA_TYPE alpha, DATA_TYPE A[restrict N][N], DATA_TYPE x[restrict N])
{
  int i, j;

#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j <= i; j++)
      A[i][j] += alpha * x[i] * x[j];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[N] = corpus_alloc((size_t) N * N, sizeof(DATA_TYPE));
  DATA_TYPE *x = corpus_alloc((size_t) N, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) N * N, 0);
  corpus_init(x, (size_t) N, 1);
  kernel_syr_lower(1.5, A, x);
  corpus_dump("A", &A[0][0], (size_t) N * N);
  free((void *) A);
  free((void *) x);
  return 0;
}
