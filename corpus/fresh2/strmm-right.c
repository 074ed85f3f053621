/* strmm-right: C += B * U in single precision, U upper triangular, order i, j, k (k <= j).
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: M=32..2048, N=32..2048 */
#define DATA_TYPE float
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

static void kernel_strmm_right(DATA_TYPE C[restrict M][N], DATA_TYPE B[restrict M][N], DATA_TYPE U[restrict N][N])
{
  int i, j, k;

#pragma scop
  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k <= j; k++)
        C[i][j] += B[i][k] * U[k][j];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*C)[N] = corpus_alloc((size_t) M * N, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[N] = corpus_alloc((size_t) M * N, sizeof(DATA_TYPE));
  DATA_TYPE (*U)[N] = corpus_alloc((size_t) N * N, sizeof(DATA_TYPE));
  corpus_init(&C[0][0], (size_t) M * N, 0);
  corpus_init(&B[0][0], (size_t) M * N, 1);
  corpus_init(&U[0][0], (size_t) N * N, 2);
  kernel_strmm_right(C, B, U);
  corpus_dump("C", &C[0][0], (size_t) M * N);
  free((void *) C);
  free((void *) B);
  free((void *) U);
  return 0;
}
