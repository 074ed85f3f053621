/* syr2k-lower: Lower triangle of C += A * B^T + B * A^T, order i, j, k (two dot products of rows).
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: N=32..2048, M=32..2048 */
#include <corpus.h>

#ifdef TSS_SMALL
# define N 39
# define M 33
#endif
#ifndef N
# define N 1000
#endif
#ifndef M
# define M 900
#endif

static void kernel_syr2k_lower(DATA_TYPE C[restrict N][N], DATA_TYPE A[restrict N][M], DATA_TYPE B[restrict N][M])
{
  int i, j, k;

#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j <= i; j++)
      for (k = 0; k < M; k++)
        C[i][j] += A[i][k] * B[j][k] + B[i][k] * A[j][k];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*C)[N] = corpus_alloc((size_t) N * N, sizeof(DATA_TYPE));
  DATA_TYPE (*A)[M] = corpus_alloc((size_t) N * M, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[M] = corpus_alloc((size_t) N * M, sizeof(DATA_TYPE));
  corpus_init(&C[0][0], (size_t) N * N, 0);
  corpus_init(&A[0][0], (size_t) N * M, 1);
  corpus_init(&B[0][0], (size_t) N * M, 2);
  kernel_syr2k_lower(C, A, B);
  corpus_dump("C", &C[0][0], (size_t) N * N);
  free((void *) C);
  free((void *) A);
  free((void *) B);
  return 0;
}
