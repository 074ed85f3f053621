/* kmeans-dist: Squared distances of N points to K centres in D dimensions: D2[i][c] += (X[i][d] - Cn[c][d])^2.
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: N=64..8192, KC=4..512, DIM=4..512 */
#include <corpus.h>

#ifdef TSS_SMALL
# define N 37
# define KC 5
# define DIM 7
#endif
#ifndef N
# define N 2000
#endif
#ifndef KC
# define KC 64
#endif
#ifndef DIM
# define DIM 64
#endif

static void kernel_kmeans_dist(DATA_TYPE D2[restrict N][KC], DATA_TYPE X[restrict N][DIM], DATA_TYPE Cn[restrict KC][DIM])
{
  int i, c, d;

#pragma scop
  for (i = 0; i < N; i++)
    for (c = 0; c < KC; c++)
      for (d = 0; d < DIM; d++)
        D2[i][c] += (X[i][d] - Cn[c][d]) * (X[i][d] - Cn[c][d]);
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*D2)[KC] = corpus_alloc((size_t) N * KC, sizeof(DATA_TYPE));
  DATA_TYPE (*X)[DIM] = corpus_alloc((size_t) N * DIM, sizeof(DATA_TYPE));
  DATA_TYPE (*Cn)[DIM] = corpus_alloc((size_t) KC * DIM, sizeof(DATA_TYPE));
  corpus_init(&D2[0][0], (size_t) N * KC, 0);
  corpus_init(&X[0][0], (size_t) N * DIM, 1);
  corpus_init(&Cn[0][0], (size_t) KC * DIM, 2);
  kernel_kmeans_dist(D2, X, Cn);
  corpus_dump("D2", &D2[0][0], (size_t) N * KC);
  free((void *) D2);
  free((void *) X);
  free((void *) Cn);
  return 0;
}
