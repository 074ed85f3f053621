/* sfilter-cols: Recursive smoothing of a batch of single-precision images down the columns and along the rows at once: y[i][j] = 0.4 y[i-1][j] + 0.3 x[i][j] + 0.5 y[i][j-1].
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NB=1..64, H=16..2048, W=16..2048 */
#define DATA_TYPE float
#include <corpus.h>

#ifdef TSS_SMALL
# define NB 3
# define H 13
# define W 17
#endif
#ifndef NB
# define NB 8
#endif
#ifndef H
# define H 512
#endif
#ifndef W
# define W 512
#endif

static void kernel_sfilter_cols(DATA_TYPE Y[restrict NB][H][W], DATA_TYPE X[restrict NB][H][W])
{
  int b, i, j;

#pragma scop
  for (b = 0; b < NB; b++)
    for (i = 1; i < H; i++)
      for (j = 1; j < W; j++)
        Y[b][i][j] = 0.4f * Y[b][i - 1][j] + 0.3f * X[b][i][j] + 0.5f * Y[b][i][j - 1];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*Y)[H][W] = corpus_alloc((size_t) NB * H * W, sizeof(DATA_TYPE));
  DATA_TYPE (*X)[H][W] = corpus_alloc((size_t) NB * H * W, sizeof(DATA_TYPE));
  corpus_init(&Y[0][0][0], (size_t) NB * H * W, 0);
  corpus_init(&X[0][0][0], (size_t) NB * H * W, 1);
  kernel_sfilter_cols(Y, X);
  corpus_dump("Y", &Y[0][0][0], (size_t) NB * H * W);
  free((void *) Y);
  free((void *) X);
  return 0;
}
