/* sdepthwise-nhwc: Depthwise 2-D convolution, channels last, single precision: out[y][x][c] += in[y+r][x+s][c] * w[r][s][c].
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: C=1..512, H=8..224, W=8..224, R=1..7, S=1..7 */
#define DATA_TYPE float
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

static void kernel_sdepthwise_nhwc(DATA_TYPE out[restrict H][W][C], DATA_TYPE in[restrict H + R - 1][W + S - 1][C], DATA_TYPE w[restrict R][S][C])
{
  int c, y, x, r, s;

#pragma scop
  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++)
      for (r = 0; r < R; r++)
        for (s = 0; s < S; s++)
          for (c = 0; c < C; c++)
            out[y][x][c] += in[y + r][x + s][c] * w[r][s][c];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*out)[W][C] = corpus_alloc((size_t) H * W * C, sizeof(DATA_TYPE));
  DATA_TYPE (*in)[W + S - 1][C] = corpus_alloc((size_t) (H + R - 1) * (W + S - 1) * C, sizeof(DATA_TYPE));
  DATA_TYPE (*w)[S][C] = corpus_alloc((size_t) R * S * C, sizeof(DATA_TYPE));
  corpus_init(&out[0][0][0], (size_t) H * W * C, 0);
  corpus_init(&in[0][0][0], (size_t) (H + R - 1) * (W + S - 1) * C, 1);
  corpus_init(&w[0][0][0], (size_t) R * S * C, 2);
  kernel_sdepthwise_nhwc(out, in, w);
  corpus_dump("out", &out[0][0][0], (size_t) H * W * C);
  free((void *) out);
  free((void *) in);
  free((void *) w);
  return 0;
}
