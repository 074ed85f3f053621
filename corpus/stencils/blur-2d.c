/* blur-2d: One out-of-place 3x3 box blur of an image (no time loop: tiles without skewing).
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: H=64..8192, W=64..8192 */
#include <corpus.h>

#ifdef TSS_SMALL
# define H 37
# define W 41
#endif
#ifndef H
# define H 2000
#endif
#ifndef W
# define W 2000
#endif

static void kernel_blur_2d(DATA_TYPE out[restrict H][W], DATA_TYPE in[restrict H + 2][W + 2])
{
  int i, j;

#pragma scop
  for (i = 0; i < H; i++)
    for (j = 0; j < W; j++)
      out[i][j] = (in[i][j] + in[i][j + 1] + in[i][j + 2] + in[i + 1][j] + in[i + 1][j + 1] + in[i + 1][j + 2]
                 + in[i + 2][j] + in[i + 2][j + 1] + in[i + 2][j + 2]) / 9.0;
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*out)[W] = corpus_alloc((size_t) H * W, sizeof(DATA_TYPE));
  DATA_TYPE (*in)[W + 2] = corpus_alloc((size_t) (H + 2) * (W + 2), sizeof(DATA_TYPE));
  corpus_init(&out[0][0], (size_t) H * W, 0);
  corpus_init(&in[0][0], (size_t) (H + 2) * (W + 2), 1);
  kernel_blur_2d(out, in);
  corpus_dump("out", &out[0][0], (size_t) H * W);
  free((void *) out);
  free((void *) in);
  return 0;
}
