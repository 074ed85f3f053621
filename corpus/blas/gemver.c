/* gemver: A += u1 v1^T + u2 v2^T, x += beta A^T y + z, w += alpha A x.
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

static void kernel_gemver(DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE A[restrict N][N], DATA_TYPE x[restrict N], DATA_TYPE w[restrict N], DATA_TYPE u1[restrict N], DATA_TYPE v1[restrict N], DATA_TYPE u2[restrict N], DATA_TYPE v2[restrict N], DATA_TYPE y[restrict N], DATA_TYPE z[restrict N])
{
  int i, j;

#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] += u1[i] * v1[j] + u2[i] * v2[j];
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      x[i] += beta * A[j][i] * y[j];
  for (i = 0; i < N; i++)
    x[i] += z[i];
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      w[i] += alpha * A[i][j] * x[j];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[N] = corpus_alloc((size_t) N * N, sizeof(DATA_TYPE));
  DATA_TYPE *x = corpus_alloc((size_t) N, sizeof(DATA_TYPE));
  DATA_TYPE *w = corpus_alloc((size_t) N, sizeof(DATA_TYPE));
  DATA_TYPE *u1 = corpus_alloc((size_t) N, sizeof(DATA_TYPE));
  DATA_TYPE *v1 = corpus_alloc((size_t) N, sizeof(DATA_TYPE));
  DATA_TYPE *u2 = corpus_alloc((size_t) N, sizeof(DATA_TYPE));
  DATA_TYPE *v2 = corpus_alloc((size_t) N, sizeof(DATA_TYPE));
  DATA_TYPE *y = corpus_alloc((size_t) N, sizeof(DATA_TYPE));
  DATA_TYPE *z = corpus_alloc((size_t) N, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) N * N, 0);
  corpus_init(x, (size_t) N, 1);
  corpus_init(w, (size_t) N, 2);
  corpus_init(u1, (size_t) N, 3);
  corpus_init(v1, (size_t) N, 4);
  corpus_init(u2, (size_t) N, 5);
  corpus_init(v2, (size_t) N, 6);
  corpus_init(y, (size_t) N, 7);
  corpus_init(z, (size_t) N, 8);
  kernel_gemver(1.5, 1.2, A, x, w, u1, v1, u2, v2, y, z);
  corpus_dump("A", &A[0][0], (size_t) N * N);
  corpus_dump("x", x, (size_t) N);
  corpus_dump("w", w, (size_t) N);
  free((void *) A);
  free((void *) x);
  free((void *) w);
  free((void *) u1);
  free((void *) v1);
  free((void *) u2);
  free((void *) v2);
  free((void *) y);
  free((void *) z);
  return 0;
}
