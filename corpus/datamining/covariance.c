/* covariance: Covariance of M variables over N samples: column means, centring, then the upper triangle of D^T D / (N - 1), mirrored.
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: M=32..2048, N=32..2048 */
#include <corpus.h>

#ifdef TSS_SMALL
# define M 33
# define N 39
#endif
#ifndef M
# define M 1000
#endif
#ifndef N
# define N 1200
#endif

static void kernel_covariance(DATA_TYPE cov[restrict M][M], DATA_TYPE data[restrict N][M], DATA_TYPE mean[restrict M])
{
  int i, j, k;

#pragma scop
  for (j = 0; j < M; j++) {
    for (i = 0; i < N; i++)
      mean[j] += data[i][j];
    mean[j] = mean[j] / N;
  }
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      data[i][j] -= mean[j];
  for (i = 0; i < M; i++)
    for (j = i; j < M; j++) {
      for (k = 0; k < N; k++)
        cov[i][j] += data[k][i] * data[k][j];
      cov[i][j] = cov[i][j] / (N - 1);
      cov[j][i] = cov[i][j];
    }
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*cov)[M] = corpus_alloc((size_t) M * M, sizeof(DATA_TYPE));
  DATA_TYPE (*data)[M] = corpus_alloc((size_t) N * M, sizeof(DATA_TYPE));
  DATA_TYPE *mean = corpus_alloc((size_t) M, sizeof(DATA_TYPE));
  corpus_init(&cov[0][0], (size_t) M * M, 0);
  corpus_init(&data[0][0], (size_t) N * M, 1);
  corpus_init(mean, (size_t) M, 2);
  kernel_covariance(cov, data, mean);
  corpus_dump("cov", &cov[0][0], (size_t) M * M);
  corpus_dump("data", &data[0][0], (size_t) N * M);
  corpus_dump("mean", mean, (size_t) M);
  free((void *) cov);
  free((void *) data);
  free((void *) mean);
  return 0;
}
