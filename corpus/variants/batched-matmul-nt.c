/* batched-matmul-nt: C[b] += A[b] * B[b]^T, B[b] stored J x K, order b, i, j, k.
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NB=1..64, NI=16..512, NJ=16..512, NK=16..512 */
#include <corpus.h>

#ifdef TSS_SMALL
# define NB 3
# define NI 13
# define NJ 17
# define NK 11
#endif
#ifndef NB
# define NB 16
#endif
#ifndef NI
# define NI 256
#endif
#ifndef NJ
# define NJ 256
#endif
#ifndef NK
# define NK 256
#endif

static void kernel_batched_matmul_nt(DATA_TYPE C[restrict NB][NI][NJ], DATA_TYPE A[restrict NB][NI][NK], DATA_TYPE B[restrict NB][NJ][NK])
{
  int b, i, j, k;

#pragma scop
  for (b = 0; b < NB; b++)
    for (i = 0; i < NI; i++)
      for (j = 0; j < NJ; j++)
        for (k = 0; k < NK; k++)
          C[b][i][j] += A[b][i][k] * B[b][j][k];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*C)[NI][NJ] = corpus_alloc((size_t) NB * NI * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*A)[NI][NK] = corpus_alloc((size_t) NB * NI * NK, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NJ][NK] = corpus_alloc((size_t) NB * NJ * NK, sizeof(DATA_TYPE));
  corpus_init(&C[0][0][0], (size_t) NB * NI * NJ, 0);
  corpus_init(&A[0][0][0], (size_t) NB * NI * NK, 1);
  corpus_init(&B[0][0][0], (size_t) NB * NJ * NK, 2);
  kernel_batched_matmul_nt(C, A, B);
  corpus_dump("C", &C[0][0][0], (size_t) NB * NI * NJ);
  free((void *) C);
  free((void *) A);
  free((void *) B);
  return 0;
}
