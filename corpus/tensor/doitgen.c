/* doitgen: Multiresolution kernel: S[r][q][p] = sum_s A[r][q][s] * W[s][p], then copied back into A.
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NR=8..256, NQ=8..256, NP=16..512 */
#include <corpus.h>

#ifdef TSS_SMALL
# define NR 7
# define NQ 9
# define NP 11
#endif
#ifndef NR
# define NR 128
#endif
#ifndef NQ
# define NQ 128
#endif
#ifndef NP
# define NP 128
#endif

static void kernel_doitgen(DATA_TYPE A[restrict NR][NQ][NP], DATA_TYPE S[restrict NR][NQ][NP], DATA_TYPE W[restrict NP][NP])
{
  int r, q, p, s;

#pragma scop
  for (r = 0; r < NR; r++)
    for (q = 0; q < NQ; q++)
      for (p = 0; p < NP; p++)
        for (s = 0; s < NP; s++)
          S[r][q][p] += A[r][q][s] * W[s][p];
  for (r = 0; r < NR; r++)
    for (q = 0; q < NQ; q++)
      for (p = 0; p < NP; p++)
        A[r][q][p] = S[r][q][p];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*A)[NQ][NP] = corpus_alloc((size_t) NR * NQ * NP, sizeof(DATA_TYPE));
  DATA_TYPE (*S)[NQ][NP] = corpus_alloc((size_t) NR * NQ * NP, sizeof(DATA_TYPE));
  DATA_TYPE (*W)[NP] = corpus_alloc((size_t) NP * NP, sizeof(DATA_TYPE));
  corpus_init(&A[0][0][0], (size_t) NR * NQ * NP, 0);
  corpus_init(&S[0][0][0], (size_t) NR * NQ * NP, 1);
  corpus_init(&W[0][0], (size_t) NP * NP, 2);
  kernel_doitgen(A, S, W);
  corpus_dump("A", &A[0][0][0], (size_t) NR * NQ * NP);
  corpus_dump("S", &S[0][0][0], (size_t) NR * NQ * NP);
  free((void *) A);
  free((void *) S);
  free((void *) W);
  return 0;
}
