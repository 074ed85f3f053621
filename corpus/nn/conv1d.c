/* conv1d: 1-D convolution over channels: out[k][x] += w[k][c][r] * in[c][x+r].
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: K=4..512, C=1..512, W=16..4096, R=1..15 */
#include <corpus.h>

#ifdef TSS_SMALL
# define K 5
# define C 3
# define W 37
# define R 3
#endif
#ifndef K
# define K 128
#endif
#ifndef C
# define C 128
#endif
#ifndef W
# define W 1024
#endif
#ifndef R
# define R 5
#endif

static void kernel_conv1d(DATA_TYPE out[restrict K][W], DATA_TYPE w[restrict K][C][R], DATA_TYPE in[restrict C][W + R - 1])
{
  int k, c, r, x;

#pragma scop
  for (k = 0; k < K; k++)
    for (c = 0; c < C; c++)
      for (r = 0; r < R; r++)
        for (x = 0; x < W; x++)
          out[k][x] += w[k][c][r] * in[c][x + r];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*out)[W] = corpus_alloc((size_t) K * W, sizeof(DATA_TYPE));
  DATA_TYPE (*w)[C][R] = corpus_alloc((size_t) K * C * R, sizeof(DATA_TYPE));
  DATA_TYPE (*in)[W + R - 1] = corpus_alloc((size_t) C * (W + R - 1), sizeof(DATA_TYPE));
  corpus_init(&out[0][0], (size_t) K * W, 0);
  corpus_init(&w[0][0][0], (size_t) K * C * R, 1);
  corpus_init(&in[0][0], (size_t) C * (W + R - 1), 2);
  kernel_conv1d(out, w, in);
  corpus_dump("out", &out[0][0], (size_t) K * W);
  free((void *) out);
  free((void *) w);
  free((void *) in);
  return 0;
}
