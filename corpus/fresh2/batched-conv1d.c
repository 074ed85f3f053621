/* batched-conv1d: 1-D convolution over a batch: out[b][k][x] += w[k][c][r] * in[b][c][x+r].
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NB=1..64, K=4..256, C=1..256, W=16..2048, R=1..15 */
#include <corpus.h>

#ifdef TSS_SMALL
# define NB 2
# define K 5
# define C 3
# define W 37
# define R 3
#endif
#ifndef NB
# define NB 8
#endif
#ifndef K
# define K 64
#endif
#ifndef C
# define C 64
#endif
#ifndef W
# define W 512
#endif
#ifndef R
# define R 5
#endif

static void kernel_batched_conv1d(DATA_TYPE out[restrict NB][K][W], DATA_TYPE w[restrict K][C][R], DATA_TYPE in[restrict NB][C][W + R - 1])
{
  int b, k, c, r, x;

#pragma scop
  for (b = 0; b < NB; b++)
    for (k = 0; k < K; k++)
      for (c = 0; c < C; c++)
        for (r = 0; r < R; r++)
          for (x = 0; x < W; x++)
            out[b][k][x] += w[k][c][r] * in[b][c][x + r];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*out)[K][W] = corpus_alloc((size_t) NB * K * W, sizeof(DATA_TYPE));
  DATA_TYPE (*w)[C][R] = corpus_alloc((size_t) K * C * R, sizeof(DATA_TYPE));
  DATA_TYPE (*in)[C][W + R - 1] = corpus_alloc((size_t) NB * C * (W + R - 1), sizeof(DATA_TYPE));
  corpus_init(&out[0][0][0], (size_t) NB * K * W, 0);
  corpus_init(&w[0][0][0], (size_t) K * C * R, 1);
  corpus_init(&in[0][0][0], (size_t) NB * C * (W + R - 1), 2);
  kernel_batched_conv1d(out, w, in);
  corpus_dump("out", &out[0][0][0], (size_t) NB * K * W);
  free((void *) out);
  free((void *) w);
  free((void *) in);
  return 0;
}
