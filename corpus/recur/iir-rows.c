/* iir-rows: Second-order recursive (IIR) filter along the rows of a batch of images: y[j] = 0.5 x[j] + 0.3 x[j-1] + 0.6 y[j-1] - 0.2 y[j-2].
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NB=1..64, H=16..2048, W=16..2048 */
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

static void kernel_iir_rows(DATA_TYPE Y[restrict NB][H][W], DATA_TYPE X[restrict NB][H][W])
{
  int b, i, j;

#pragma scop
  for (b = 0; b < NB; b++)
    for (i = 0; i < H; i++)
      for (j = 2; j < W; j++)
        Y[b][i][j] = 0.5 * X[b][i][j] + 0.3 * X[b][i][j - 1] + 0.6 * Y[b][i][j - 1] - 0.2 * Y[b][i][j - 2];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*Y)[H][W] = corpus_alloc((size_t) NB * H * W, sizeof(DATA_TYPE));
  DATA_TYPE (*X)[H][W] = corpus_alloc((size_t) NB * H * W, sizeof(DATA_TYPE));
  corpus_init(&Y[0][0][0], (size_t) NB * H * W, 0);
  corpus_init(&X[0][0][0], (size_t) NB * H * W, 1);
  kernel_iir_rows(Y, X);
  corpus_dump("Y", &Y[0][0][0], (size_t) NB * H * W);
  free((void *) Y);
  free((void *) X);
  return 0;
}
