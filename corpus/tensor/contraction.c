/* contraction: C[a][b] += A[a][c][d] * B[d][c][b]: a two-index contraction with a transposed operand.
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NA=8..512, NB=8..512, NC=4..128, ND=4..128 */
#include <corpus.h>

#ifdef TSS_SMALL
# define NA 7
# define NB 9
# define NC 5
# define ND 11
#endif
#ifndef NA
# define NA 128
#endif
#ifndef NB
# define NB 128
#endif
#ifndef NC
# define NC 64
#endif
#ifndef ND
# define ND 64
#endif

static void kernel_contraction(DATA_TYPE C[restrict NA][NB], DATA_TYPE A[restrict NA][NC][ND], DATA_TYPE B[restrict ND][NC][NB])
{
  int a, b, c, d;

#pragma scop
  for (a = 0; a < NA; a++)
    for (c = 0; c < NC; c++)
      for (d = 0; d < ND; d++)
        for (b = 0; b < NB; b++)
          C[a][b] += A[a][c][d] * B[d][c][b];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*C)[NB] = corpus_alloc((size_t) NA * NB, sizeof(DATA_TYPE));
  DATA_TYPE (*A)[NC][ND] = corpus_alloc((size_t) NA * NC * ND, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NC][NB] = corpus_alloc((size_t) ND * NC * NB, sizeof(DATA_TYPE));
  corpus_init(&C[0][0], (size_t) NA * NB, 0);
  corpus_init(&A[0][0][0], (size_t) NA * NC * ND, 1);
  corpus_init(&B[0][0][0], (size_t) ND * NC * NB, 2);
  kernel_contraction(C, A, B);
  corpus_dump("C", &C[0][0], (size_t) NA * NB);
  free((void *) C);
  free((void *) A);
  free((void *) B);
  return 0;
}
