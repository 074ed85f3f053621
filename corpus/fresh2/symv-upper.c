/* symv-upper: y += A x with only A's upper triangle stored: each stored element used twice.
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

static void kernel_symv_upper(DATA_TYPE y[restrict N], DATA_TYPE A[restrict N][N], DATA_TYPE x[restrict N])
{
  int i, j;

#pragma scop
  for (i = 0; i < N; i++)
    for (j = i; j < N; j++) {
      y[i] += A[i][j] * x[j];
      y[j] += A[i][j] * x[i];
    }
#pragma endscop
}

int main(void)
{
  DATA_TYPE *y = corpus_alloc((size_t) N, sizeof(DATA_TYPE));
  DATA_TYPE (*A)[N] = corpus_alloc((size_t) N * N, sizeof(DATA_TYPE));
  DATA_TYPE *x = corpus_alloc((size_t) N, sizeof(DATA_TYPE));
  corpus_init(y, (size_t) N, 0);
  corpus_init(&A[0][0], (size_t) N * N, 1);
  corpus_init(x, (size_t) N, 2);
  kernel_symv_upper(y, A, x);
  corpus_dump("y", y, (size_t) N);
  free((void *) y);
  free((void *) A);
  free((void *) x);
  return 0;
}
