/* lu-right: LU factorisation without pivoting, right-looking (k, i, j): each step updates the trailing matrix.
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: N=32..2048 */
#include <corpus.h>

#ifdef TSS_SMALL
# define N 39
#endif
#ifndef N
# define N 1000
#endif

static void kernel_lu_right(DATA_TYPE A[restrict N][N])
{
  int i, j, k;

#pragma scop
  for (k = 0; k < N; k++) {
    for (i = k + 1; i < N; i++)
      A[i][k] = A[i][k] / A[k][k];
    for (i = k + 1; i < N; i++)
      for (j = k + 1; j < N; j++)
        A[i][j] -= A[i][k] * A[k][j];
  }
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[N] = corpus_alloc((size_t) N * N, sizeof(DATA_TYPE));
  corpus_init(&A[0][0], (size_t) N * N, 0);
  kernel_lu_right(A);
  corpus_dump("A", &A[0][0], (size_t) N * N);
  free((void *) A);
  return 0;
}
