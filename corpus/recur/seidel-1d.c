/* seidel-1d: 3-point Gauss-Seidel sweeps in place (each point reads its already updated left neighbour).
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: T=4..512, N=256..100000 */
#include <corpus.h>

#ifdef TSS_SMALL
# define T 5
# define N 41
#endif
#ifndef T
# define T 200
#endif
#ifndef N
# define N 20000
#endif

static void kernel_seidel_1d(DATA_TYPE A[restrict N])
{
  int t, i;

#pragma scop
  for (t = 0; t < T; t++)
    for (i = 1; i < N - 1; i++)
      A[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
#pragma endscop
}

int main(void)
{
  DATA_TYPE *A = corpus_alloc((size_t) N, sizeof(DATA_TYPE));
  corpus_init(A, (size_t) N, 0);
  kernel_seidel_1d(A);
  corpus_dump("A", A, (size_t) N);
  free((void *) A);
  return 0;
}
