/* fdtd-2d: 2-D finite-difference time domain: the E fields from H, then H from E, with a source row.
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: T=4..200, NX=32..2048, NY=32..2048 */
#include <corpus.h>

#ifdef TSS_SMALL
# define T 4
# define NX 37
# define NY 41
#endif
#ifndef T
# define T 100
#endif
#ifndef NX
# define NX 1000
#endif
#ifndef NY
# define NY 1200
#endif

static void kernel_fdtd_2d(DATA_TYPE ex[restrict NX][NY], DATA_TYPE ey[restrict NX][NY], DATA_TYPE hz[restrict NX][NY], DATA_TYPE src[restrict T])
{
  int t, i, j;

#pragma scop
  for (t = 0; t < T; t++) {
    for (j = 0; j < NY; j++)
      ey[0][j] = src[t];
    for (i = 1; i < NX; i++)
      for (j = 0; j < NY; j++)
        ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
    for (i = 0; i < NX; i++)
      for (j = 1; j < NY; j++)
        ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
    for (i = 0; i < NX - 1; i++)
      for (j = 0; j < NY - 1; j++)
        hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
  }
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*ex)[NY] = corpus_alloc((size_t) NX * NY, sizeof(DATA_TYPE));
  DATA_TYPE (*ey)[NY] = corpus_alloc((size_t) NX * NY, sizeof(DATA_TYPE));
  DATA_TYPE (*hz)[NY] = corpus_alloc((size_t) NX * NY, sizeof(DATA_TYPE));
  DATA_TYPE *src = corpus_alloc((size_t) T, sizeof(DATA_TYPE));
  corpus_init(&ex[0][0], (size_t) NX * NY, 0);
  corpus_init(&ey[0][0], (size_t) NX * NY, 1);
  corpus_init(&hz[0][0], (size_t) NX * NY, 2);
  corpus_init(src, (size_t) T, 3);
  kernel_fdtd_2d(ex, ey, hz, src);
  corpus_dump("ex", &ex[0][0], (size_t) NX * NY);
  corpus_dump("ey", &ey[0][0], (size_t) NX * NY);
  corpus_dump("hz", &hz[0][0], (size_t) NX * NY);
  free((void *) ex);
  free((void *) ey);
  free((void *) hz);
  free((void *) src);
  return 0;
}
