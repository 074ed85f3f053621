/* gemm-jik: C += A * B in loop order j, i, k (dot products, C walked by columns).
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NI=32..2048, NJ=32..2048, NK=32..2048 */
#include <corpus.h>

#ifdef TSS_SMALL
# define NI 37
# define NJ 41
# define NK 29
#endif
#ifndef NI
# define NI 900
#endif
#ifndef NJ
# define NJ 1000
#endif
#ifndef NK
# define NK 1100
#endif

static void kernel_gemm_jik(DATA_TYPE C[restrict NI][NJ], DATA_TYPE A[restrict NI][NK], DATA_TYPE B[restrict NK][NJ])
{
  int i, j, k;

#pragma scop
  for (j = 0; j < NJ; j++)
    for (i = 0; i < NI; i++)
      for (k = 0; k < NK; k++)
        C[i][j] += A[i][k] * B[k][j];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*C)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*A)[NK] = corpus_alloc((size_t) NI * NK, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NJ] = corpus_alloc((size_t) NK * NJ, sizeof(DATA_TYPE));
  corpus_init(&C[0][0], (size_t) NI * NJ, 0);
  corpus_init(&A[0][0], (size_t) NI * NK, 1);
  corpus_init(&B[0][0], (size_t) NK * NJ, 2);
  kernel_gemm_jik(C, A, B);
  corpus_dump("C", &C[0][0], (size_t) NI * NJ);
  free((void *) C);
  free((void *) A);
  free((void *) B);
  return 0;
}
