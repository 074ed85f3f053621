/* jacobi-2d: 5-point Jacobi sweeps in double precision, alternating between A and B.
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: T=4..200, N=32..2048 */
#include <corpus.h>

#ifdef TSS_SMALL
# define T 5
# define N 39
#endif
#ifndef T
# define T 100
#endif
#ifndef N
# define N 1300
#endif

static void kernel_jacobi_2d(DATA_TYPE A[restrict N][N], DATA_TYPE B[restrict N][N])
{
  int t, i, j;

#pragma scop
  for (t = 0; t < T; t++) {
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j]);
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i + 1][j] + B[i - 1][j]);
  }
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[N] = corpus_alloc((size_t) N * N, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[N] = corpus_alloc((size_t) N * N, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) N * N, 0);
  corpus_init(&B[0][0], (size_t) N * N, 1);
  kernel_jacobi_2d(A, B);
  corpus_dump("A", &A[0][0], (size_t) N * N);
  corpus_dump("B", &B[0][0], (size_t) N * N);
  free((void *) A);
  free((void *) B);
  return 0;
}
