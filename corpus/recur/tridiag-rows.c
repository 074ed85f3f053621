/* tridiag-rows: Elimination along every row of a tridiagonal-like system, forward then backward (Thomas' two sweeps with constant coefficients).
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
# define M 2000
#endif
#ifndef N
# define N 2000
#endif

static void kernel_tridiag_rows(DATA_TYPE D[restrict M][N])
{
  int i, j;

#pragma scop
  for (i = 0; i < M; i++)
    for (j = 1; j < N; j++)
      D[i][j] = D[i][j] - 0.3 * D[i][j - 1];
  for (i = 0; i < M; i++)
    for (j = 0; j < N - 1; j++)
      D[i][N - 2 - j] = 0.8 * (D[i][N - 2 - j] - 0.3 * D[i][N - 1 - j]);
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*D)[N] = corpus_alloc((size_t) M * N, sizeof(DATA_TYPE));
  corpus_init(&D[0][0], (size_t) M * N, 0);
  kernel_tridiag_rows(D);
  corpus_dump("D", &D[0][0], (size_t) M * N);
  free((void *) D);
  return 0;
}
