/* sat-2d: Summed-area table in place: S[i][j] += S[i-1][j] + S[i][j-1] - S[i-1][j-1].
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

static void kernel_sat_2d(DATA_TYPE S[restrict H][W])
{
  int i, j;

#pragma scop
  for (i = 1; i < H; i++)
    for (j = 1; j < W; j++)
      S[i][j] = S[i][j] + S[i - 1][j] + S[i][j - 1] - S[i - 1][j - 1];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*S)[W] = corpus_alloc((size_t) H * W, sizeof(DATA_TYPE));
  corpus_init(&S[0][0], (size_t) H * W, 0);
  kernel_sat_2d(S);
  corpus_dump("S", &S[0][0], (size_t) H * W);
  free((void *) S);
  return 0;
}
