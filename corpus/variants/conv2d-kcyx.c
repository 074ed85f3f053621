/* conv2d-kcyx: 2-D convolution, channels first, window loops innermost: order k, c, y, x, r, s.
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

static void kernel_conv2d_kcyx(DATA_TYPE out[restrict K][H][W], DATA_TYPE w[restrict K][C][R][S], DATA_TYPE in[restrict C][H + R - 1][W + S - 1])
{
  int k, c, r, s, y, x;

#pragma scop
  for (k = 0; k < K; k++)
    for (c = 0; c < C; c++)
      for (y = 0; y < H; y++)
        for (x = 0; x < W; x++)
          for (r = 0; r < R; r++)
            for (s = 0; s < S; s++)
              out[k][y][x] += w[k][c][r][s] * in[c][y + r][x + s];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*out)[H][W] = corpus_alloc((size_t) K * H * W, sizeof(DATA_TYPE));
  DATA_TYPE (*w)[C][R][S] = corpus_alloc((size_t) K * C * R * S, sizeof(DATA_TYPE));
  DATA_TYPE (*in)[H + R - 1][W + S - 1] = corpus_alloc((size_t) C * (H + R - 1) * (W + S - 1), sizeof(DATA_TYPE));
  corpus_init(&out[0][0][0], (size_t) K * H * W, 0);
  corpus_init(&w[0][0][0][0], (size_t) K * C * R * S, 1);
  corpus_init(&in[0][0][0], (size_t) C * (H + R - 1) * (W + S - 1), 2);
  kernel_conv2d_kcyx(out, w, in);
  corpus_dump("out", &out[0][0][0], (size_t) K * H * W);
  free((void *) out);
  free((void *) w);
  free((void *) in);
  return 0;
}
