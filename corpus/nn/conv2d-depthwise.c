/* conv2d-depthwise: Depthwise 2-D convolution: each channel with its own window.
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: C=1..512, H=8..224, W=8..224, R=1..7, S=1..7 */
#include <corpus.h>

#ifdef TSS_SMALL
# define C 3
# define H 9
# define W 11
# define R 3
# define S 2
#endif
#ifndef C
# define C 64
#endif
#ifndef H
# define H 112
#endif
#ifndef W
# define W 112
#endif
#ifndef R
# define R 3
#endif
#ifndef S
# define S 3
#endif

static void kernel_conv2d_depthwise(DATA_TYPE out[restrict C][H][W], DATA_TYPE w[restrict C][R][S], DATA_TYPE in[restrict C][H + R - 1][W + S - 1])
{
  int c, y, x, r, s;

#pragma scop
  for (c = 0; c < C; c++)
    for (y = 0; y < H; y++)
      for (x = 0; x < W; x++)
        for (r = 0; r < R; r++)
          for (s = 0; s < S; s++)
            out[c][y][x] += w[c][r][s] * in[c][y + r][x + s];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*out)[H][W] = corpus_alloc((size_t) C * H * W, sizeof(DATA_TYPE));
  DATA_TYPE (*w)[R][S] = corpus_alloc((size_t) C * R * S, sizeof(DATA_TYPE));
  DATA_TYPE (*in)[H + R - 1][W + S - 1] = corpus_alloc((size_t) C * (H + R - 1) * (W + S - 1), sizeof(DATA_TYPE));
  corpus_init(&out[0][0][0], (size_t) C * H * W, 0);
  corpus_init(&w[0][0][0], (size_t) C * R * S, 1);
  corpus_init(&in[0][0][0], (size_t) C * (H + R - 1) * (W + S - 1), 2);
  kernel_conv2d_depthwise(out, w, in);
  corpus_dump("out", &out[0][0][0], (size_t) C * H * W);
  free((void *) out);
  free((void *) w);
  free((void *) in);
  return 0;
}
