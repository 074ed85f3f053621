/* trmm-lower-oop: C += L * B out of place, L lower triangular, order i, k, j.
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

static void kernel_trmm_lower_oop(DATA_TYPE C[restrict M][N], DATA_TYPE L[restrict M][M], DATA_TYPE B[restrict M][N])
{
  int i, j, k;

#pragma scop
  for (i = 0; i < M; i++)
    for (k = 0; k <= i; k++)
      for (j = 0; j < N; j++)
        C[i][j] += L[i][k] * B[k][j];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*C)[N] = corpus_alloc((size_t) M * N, sizeof(DATA_TYPE));
  DATA_TYPE (*L)[M] = corpus_alloc((size_t) M * M, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[N] = corpus_alloc((size_t) M * N, sizeof(DATA_TYPE));
  corpus_init(&C[0][0], (size_t) M * N, 0);
  corpus_init(&L[0][0], (size_t) M * M, 1);
  corpus_init(&B[0][0], (size_t) M * N, 2);
  kernel_trmm_lower_oop(C, L, B);
  corpus_dump("C", &C[0][0], (size_t) M * N);
  free((void *) C);
  free((void *) L);
  free((void *) B);
  return 0;
}
