/* seidel-3d: 7-point Gauss-Seidel sweeps in place over a volume.
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: T=2..100, N=16..200 */
#include <corpus.h>

#ifdef TSS_SMALL
# define T 3
# define N 11
#endif
#ifndef T
# define T 20
#endif
#ifndef N
# define N 120
#endif

static void kernel_seidel_3d(DATA_TYPE A[restrict N][N][N])
{
  int t, i, j, k;

#pragma scop
  for (t = 0; t < T; t++)
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        for (k = 1; k < N - 1; k++)
          A[i][j][k] = (A[i - 1][j][k] + A[i][j - 1][k] + A[i][j][k - 1] + A[i][j][k]
                        + A[i][j][k + 1] + A[i][j + 1][k] + A[i + 1][j][k]) / 7.0;
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[N][N] = corpus_alloc((size_t) N * N * N, sizeof(DATA_TYPE));
  corpus_init(&A[0][0][0], (size_t) N * N * N, 0);
  kernel_seidel_3d(A);
  corpus_dump("A", &A[0][0][0], (size_t) N * N * N);
  free((void *) A);
  return 0;
}
