/* trmm-upper: B := A * B in place, A unit upper triangular (row i reads the rows below it).
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: M=32..2048, N=32..2048 */
#include <corpus.h>

#ifdef TSS_SMALL
# define M 33
# define N 39
#endif
#ifndef M
# define M 1000
#endif
#ifndef N
# define N 1100
#endif

static void kernel_trmm_upper(DATA_TYPE B[restrict M][N], DATA_TYPE A[restrict M][M])
{
  int i, j, k;

#pragma scop
  for (i = 0; i < M; i++)
    for (k = i + 1; k < M; k++)
      for (j = 0; j < N; j++)
        B[i][j] += A[i][k] * B[k][j];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*B)[N] = corpus_alloc((size_t) M * N, sizeof(DATA_TYPE));
  DATA_TYPE (*A)[M] = corpus_alloc((size_t) M * M, sizeof(DATA_TYPE));
  corpus_init(&B[0][0], (size_t) M * N, 0);
  corpus_init(&A[0][0], (size_t) M * M, 1);
  kernel_trmm_upper(B, A);
  corpus_dump("B", &B[0][0], (size_t) M * N);
  free((void *) B);
  free((void *) A);
  return 0;
}
