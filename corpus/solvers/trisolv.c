/* trisolv: Forward substitution L x = b for one right-hand side.
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

static void kernel_trisolv(DATA_TYPE x[restrict N], DATA_TYPE L[restrict N][N], DATA_TYPE b[restrict N])
{
  int i, j;

#pragma scop
  for (i = 0; i < N; i++) {
    x[i] = b[i];
    for (j = 0; j < i; j++)
      x[i] -= L[i][j] * x[j];
    x[i] = x[i] / L[i][i];
  }
#pragma endscop
}

int main(void)
{
  DATA_TYPE *x = corpus_alloc((size_t) N, sizeof(DATA_TYPE));
  DATA_TYPE (*L)[N] = corpus_alloc((size_t) N * N, sizeof(DATA_TYPE));
  DATA_TYPE *b = corpus_alloc((size_t) N, sizeof(DATA_TYPE));
  corpus_init(x, (size_t) N, 0);
  corpus_init(&L[0][0], (size_t) N * N, 1);
  corpus_init(b, (size_t) N, 2);
  kernel_trisolv(x, L, b);
  corpus_dump("x", x, (size_t) N);
  free((void *) x);
  free((void *) L);
  free((void *) b);
  return 0;
}
