/* gesummv: y = alpha * A * x + beta * B * x.
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

static void kernel_gesummv(DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE y[restrict N], DATA_TYPE t[restrict N], DATA_TYPE A[restrict N][N], DATA_TYPE B[restrict N][N], DATA_TYPE x[restrict N])
{
  int i, j;

#pragma scop
  for (i = 0; i < N; i++) {
    for (j = 0; j < N; j++) {
      t[i] += A[i][j] * x[j];
      y[i] += B[i][j] * x[j];
    }
    y[i] = alpha * t[i] + beta * y[i];
  }
#pragma endscop
}

int main(void)
{
  DATA_TYPE *y = corpus_alloc((size_t) N, sizeof(DATA_TYPE));
  DATA_TYPE *t = corpus_alloc((size_t) N, sizeof(DATA_TYPE));
  DATA_TYPE (*A)[N] = corpus_alloc((size_t) N * N, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[N] = corpus_alloc((size_t) N * N, sizeof(DATA_TYPE));
  DATA_TYPE *x = corpus_alloc((size_t) N, sizeof(DATA_TYPE));
  corpus_init(y, (size_t) N, 0);
  corpus_init(t, (size_t) N, 1);
  corpus_init(&A[0][0], (size_t) N * N, 2);
  corpus_init(&B[0][0], (size_t) N * N, 3);
  corpus_init(x, (size_t) N, 4);
  kernel_gesummv(1.5, 1.2, y, t, A, B, x);
  corpus_dump("y", y, (size_t) N);
  corpus_dump("t", t, (size_t) N);
  free((void *) y);
  free((void *) t);
  free((void *) A);
  free((void *) B);
  free((void *) x);
  return 0;
}
