/* avgpool-2x2: 2x2 average pooling with stride 2 over channels: reads of stride 2.
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: C=1..512, H=8..1024, W=8..1024 */
#include <corpus.h>

#ifdef TSS_SMALL
# define C 3
# define H 9
# define W 11
#endif
#ifndef C
# define C 64
#endif
#ifndef H
# define H 256
#endif
#ifndef W
# define W 256
#endif

static void kernel_avgpool_2x2(DATA_TYPE out[restrict C][H][W], DATA_TYPE in[restrict C][2 * H][2 * W])
{
  int c, y, x;

#pragma scop
  for (c = 0; c < C; c++)
    for (y = 0; y < H; y++)
      for (x = 0; x < W; x++)
        out[c][y][x] += 0.25 * (in[c][2 * y][2 * x] + in[c][2 * y][2 * x + 1] + in[c][2 * y + 1][2 * x]
                                + in[c][2 * y + 1][2 * x + 1]);
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*out)[H][W] = corpus_alloc((size_t) C * H * W, sizeof(DATA_TYPE));
  DATA_TYPE (*in)[2 * H][2 * W] = corpus_alloc((size_t) C * 2 * H * 2 * W, sizeof(DATA_TYPE));
  corpus_init(&out[0][0][0], (size_t) C * H * W, 0);
  corpus_init(&in[0][0][0], (size_t) C * 2 * H * 2 * W, 1);
  kernel_avgpool_2x2(out, in);
  corpus_dump("out", &out[0][0][0], (size_t) C * H * W);
  free((void *) out);
  free((void *) in);
  return 0;
}
