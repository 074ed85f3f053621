/* bicg: s = A^T * r and q = A * p in one sweep over A (BiCG's two products).
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: M=64..8192, N=64..8192 */
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

static void kernel_bicg(DATA_TYPE s[restrict N], DATA_TYPE q[restrict M], DATA_TYPE A[restrict M][N], DATA_TYPE r[restrict M], DATA_TYPE p[restrict N])
{
  int i, j;

#pragma scop
  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++) {
      s[j] += r[i] * A[i][j];
      q[i] += A[i][j] * p[j];
    }
#pragma endscop
}

int main(void)
{
  DATA_TYPE *s = corpus_alloc((size_t) N, sizeof(DATA_TYPE));
  DATA_TYPE *q = corpus_alloc((size_t) M, sizeof(DATA_TYPE));
  DATA_TYPE (*A)[N] = corpus_alloc((size_t) M * N, sizeof(DATA_TYPE));
  DATA_TYPE *r = corpus_alloc((size_t) M, sizeof(DATA_TYPE));
  DATA_TYPE *p = corpus_alloc((size_t) N, sizeof(DATA_TYPE));
  corpus_init(s, (size_t) N, 0);
  corpus_init(q, (size_t) M, 1);
  corpus_init(&A[0][0], (size_t) M * N, 2);
  corpus_init(r, (size_t) M, 3);
  corpus_init(p, (size_t) N, 4);
  kernel_bicg(s, q, A, r, p);
  corpus_dump("s", s, (size_t) N);
  corpus_dump("q", q, (size_t) M);
  free((void *) s);
  free((void *) q);
  free((void *) A);
  free((void *) r);
  free((void *) p);
  return 0;
}
