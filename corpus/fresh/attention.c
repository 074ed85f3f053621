/* attention: One attention head without the softmax: S = Q K^T, then O += S V (two products through S).
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NQ=16..2048, NKV=16..2048, D=8..256 */
#include <corpus.h>

#ifdef TSS_SMALL
# define NQ 13
# define NKV 17
# define D 7
#endif
#ifndef NQ
# define NQ 512
#endif
#ifndef NKV
# define NKV 512
#endif
#ifndef D
# define D 64
#endif

static void kernel_attention(DATA_TYPE O[restrict NQ][D], DATA_TYPE S[restrict NQ][NKV], DATA_TYPE Q[restrict NQ][D], DATA_TYPE Kt[restrict NKV][D], DATA_TYPE V[restrict NKV][D])
{
  int i, j, d;

#pragma scop
  for (i = 0; i < NQ; i++)
    for (j = 0; j < NKV; j++)
      for (d = 0; d < D; d++)
        S[i][j] += Q[i][d] * Kt[j][d];
  for (i = 0; i < NQ; i++)
    for (j = 0; j < NKV; j++)
      for (d = 0; d < D; d++)
        O[i][d] += S[i][j] * V[j][d];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*O)[D] = corpus_alloc((size_t) NQ * D, sizeof(DATA_TYPE));
  DATA_TYPE (*S)[NKV] = corpus_alloc((size_t) NQ * NKV, sizeof(DATA_TYPE));
  DATA_TYPE (*Q)[D] = corpus_alloc((size_t) NQ * D, sizeof(DATA_TYPE));
  DATA_TYPE (*Kt)[D] = corpus_alloc((size_t) NKV * D, sizeof(DATA_TYPE));
  DATA_TYPE (*V)[D] = corpus_alloc((size_t) NKV * D, sizeof(DATA_TYPE));
  corpus_init(&O[0][0], (size_t) NQ * D, 0);
  corpus_init(&S[0][0], (size_t) NQ * NKV, 1);
  corpus_init(&Q[0][0], (size_t) NQ * D, 2);
  corpus_init(&Kt[0][0], (size_t) NKV * D, 3);
  corpus_init(&V[0][0], (size_t) NKV * D, 4);
  kernel_attention(O, S, Q, Kt, V);
  corpus_dump("O", &O[0][0], (size_t) NQ * D);
  corpus_dump("S", &S[0][0], (size_t) NQ * NKV);
  free((void *) O);
  free((void *) S);
  free((void *) Q);
  free((void *) Kt);
  free((void *) V);
  return 0;
}
