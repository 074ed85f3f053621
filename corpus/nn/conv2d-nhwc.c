/* conv2d-nhwc: 2-D convolution, batch 1, channels last: out[y][x][k] += in[y+r][x+s][c] * w[r][s][c][k].
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: K=4..256, C=1..256, H=8..224, W=8..224, R=1..7, S=1..7 */
#include <corpus.h>

#ifdef TSS_SMALL
# define K 5
# define C 3
# define H 9
# define W 11
# define R 3
# define S 2
#endif
#ifndef K
# define K 64
#endif
#ifndef C
# define C 64
#endif
#ifndef H
# define H 56
#endif
#ifndef W
# define W 56
#endif
#ifndef R
# define R 3
#endif
#ifndef S
# define S 3
#endif

static void kernel_conv2d_nhwc(DATA_TYPE out[restrict H][W][K], DATA_TYPE in[restrict H + R - 1][W + S - 1][C], DATA_TYPE w[restrict R][S][C][K])
{
  int y, x, r, s, c, k;

#pragma scop
  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++)
      for (r = 0; r < R; r++)
        for (s = 0; s < S; s++)
          for (c = 0; c < C; c++)
            for (k = 0; k < K; k++)
              out[y][x][k] += in[y + r][x + s][c] * w[r][s][c][k];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*out)[W][K] = corpus_alloc((size_t) H * W * K, sizeof(DATA_TYPE));
  DATA_TYPE (*in)[W + S - 1][C] = corpus_alloc((size_t) (H + R - 1) * (W + S - 1) * C, sizeof(DATA_TYPE));
  DATA_TYPE (*w)[S][C][K] = corpus_alloc((size_t) R * S * C * K, sizeof(DATA_TYPE));
  corpus_init(&out[0][0][0], (size_t) H * W * K, 0);
  corpus_init(&in[0][0][0], (size_t) (H + R - 1) * (W + S - 1) * C, 1);
  corpus_init(&w[0][0][0][0], (size_t) R * S * C * K, 2);
  kernel_conv2d_nhwc(out, in, w);
  corpus_dump("out", &out[0][0][0], (size_t) H * W * K);
  free((void *) out);
  free((void *) in);
  free((void *) w);
  return 0;
}
