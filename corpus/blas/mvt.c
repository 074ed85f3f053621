/* mvt: x1 += A * y1 and x2 += A^T * y2 in two nests over the same matrix.
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

static void kernel_mvt(DATA_TYPE x1[restrict N], DATA_TYPE x2[restrict N], DATA_TYPE A[restrict N][N], DATA_TYPE y1[restrict N], DATA_TYPE y2[restrict N])
{
  int i, j;

#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      x1[i] += A[i][j] * y1[j];
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      x2[i] += A[j][i] * y2[j];
#pragma endscop
}

int main(void)
{
  DATA_TYPE *x1 = corpus_alloc((size_t) N, sizeof(DATA_TYPE));
  DATA_TYPE *x2 = corpus_alloc((size_t) N, sizeof(DATA_TYPE));
  DATA_TYPE (*A)[N] = corpus_alloc((size_t) N * N, sizeof(DATA_TYPE));
  DATA_TYPE *y1 = corpus_alloc((size_t) N, sizeof(DATA_TYPE));
  DATA_TYPE *y2 = corpus_alloc((size_t) N, sizeof(DATA_TYPE));
  corpus_init(x1, (size_t) N, 0);
  corpus_init(x2, (size_t) N, 1);
  corpus_init(&A[0][0], (size_t) N * N, 2);
  corpus_init(y1, (size_t) N, 3);
  corpus_init(y2, (size_t) N, 4);
  kernel_mvt(x1, x2, A, y1, y2);
  corpus_dump("x1", x1, (size_t) N);
  corpus_dump("x2", x2, (size_t) N);
  free((void *) x1);
  free((void *) x2);
  free((void *) A);
  free((void *) y1);
  free((void *) y2);
  return 0;
}
