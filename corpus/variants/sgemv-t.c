/* sgemv-t: y += A^T * x in single precision, order i, j.
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: M=64..8192, N=64..8192 */
#define DATA_TYPE float
#include <corpus.h>

#ifdef TSS_SMALL
# define M 37
# define N 41
#endif
#ifndef M
# define M 3000
#endif
#ifndef N
# define N 3500
#endif

static void kernel_sgemv_t(DATA_TYPE y[restrict N], DATA_TYPE A[restrict M][N], DATA_TYPE x[restrict M])
{
  int i, j;

#pragma scop
  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++)
      y[j] += A[i][j] * x[i];
#pragma endscop
}

int main(void)
{
  DATA_TYPE *y = corpus_alloc((size_t) N, sizeof(DATA_TYPE));
  DATA_TYPE (*A)[N] = corpus_alloc((size_t) M * N, sizeof(DATA_TYPE));
  DATA_TYPE *x = corpus_alloc((size_t) M, sizeof(DATA_TYPE));
  corpus_init(y, (size_t) N, 0);
  corpus_init(&A[0][0], (size_t) M * N, 1);
  corpus_init(x, (size_t) M, 2);
  kernel_sgemv_t(y, A, x);
  corpus_dump("y", y, (size_t) N);
  free((void *) y);
  free((void *) A);
  free((void *) x);
  return 0;
}
