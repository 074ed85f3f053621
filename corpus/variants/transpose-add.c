/* transpose-add: B += A^T: a transposed read of one matrix into another (tiling's textbook case).
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

static void kernel_transpose_add(DATA_TYPE B[restrict M][N], DATA_TYPE A[restrict N][M])
{
  int i, j;

#pragma scop
  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++)
      B[i][j] += A[j][i];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*B)[N] = corpus_alloc((size_t) M * N, sizeof(DATA_TYPE));
  DATA_TYPE (*A)[M] = corpus_alloc((size_t) N * M, sizeof(DATA_TYPE));
  corpus_init(&B[0][0], (size_t) M * N, 0);
  corpus_init(&A[0][0], (size_t) N * M, 1);
  kernel_transpose_add(B, A);
  corpus_dump("B", &B[0][0], (size_t) M * N);
  free((void *) B);
  free((void *) A);
  return 0;
}
