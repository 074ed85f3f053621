/* mttkrp-mode2: MTTKRP along the second mode: M[j][r] += X[i][j][k] * B[i][r] * C[k][r], order j, i, k, r.
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NI=8..512, NJ=8..512, NK=8..512, NR=4..256 */
#include <corpus.h>

#ifdef TSS_SMALL
# define NI 7
# define NJ 9
# define NK 5
# define NR 11
#endif
#ifndef NI
# define NI 128
#endif
#ifndef NJ
# define NJ 128
#endif
#ifndef NK
# define NK 128
#endif
#ifndef NR
# define NR 32
#endif

static void kernel_mttkrp_mode2(DATA_TYPE M[restrict NJ][NR], DATA_TYPE X[restrict NI][NJ][NK], DATA_TYPE B[restrict NI][NR], DATA_TYPE C[restrict NK][NR])
{
  int i, j, k, r;

#pragma scop
  for (j = 0; j < NJ; j++)
    for (i = 0; i < NI; i++)
      for (k = 0; k < NK; k++)
        for (r = 0; r < NR; r++)
          M[j][r] += X[i][j][k] * B[i][r] * C[k][r];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*M)[NR] = corpus_alloc((size_t) NJ * NR, sizeof(DATA_TYPE));
  DATA_TYPE (*X)[NJ][NK] = corpus_alloc((size_t) NI * NJ * NK, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NR] = corpus_alloc((size_t) NI * NR, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NR] = corpus_alloc((size_t) NK * NR, sizeof(DATA_TYPE));
  corpus_init(&M[0][0], (size_t) NJ * NR, 0);
  corpus_init(&X[0][0][0], (size_t) NI * NJ * NK, 1);
  corpus_init(&B[0][0], (size_t) NI * NR, 2);
  corpus_init(&C[0][0], (size_t) NK * NR, 3);
  kernel_mttkrp_mode2(M, X, B, C);
  corpus_dump("M", &M[0][0], (size_t) NJ * NR);
  free((void *) M);
  free((void *) X);
  free((void *) B);
  free((void *) C);
  return 0;
}
