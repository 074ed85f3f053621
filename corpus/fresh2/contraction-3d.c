/* contraction-3d: C[a][b][c] += A[a][d][c] * B[b][d]: a three-index result contracted over d, order a, b, d, c.
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NA=4..256, NB=4..256, NC=4..256, ND=4..256 */
#include <corpus.h>

#ifdef TSS_SMALL
# define NA 5
# define NB 7
# define NC 9
# define ND 11
#endif
#ifndef NA
# define NA 64
#endif
#ifndef NB
# define NB 64
#endif
#ifndef NC
# define NC 64
#endif
#ifndef ND
# define ND 64
#endif

static void kernel_contraction_3d(DATA_TYPE C[restrict NA][NB][NC], DATA_TYPE A[restrict NA][ND][NC], DATA_TYPE B[restrict NB][ND])
{
  int a, b, c, d;

#pragma scop
  for (a = 0; a < NA; a++)
    for (b = 0; b < NB; b++)
      for (d = 0; d < ND; d++)
        for (c = 0; c < NC; c++)
          C[a][b][c] += A[a][d][c] * B[b][d];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*C)[NB][NC] = corpus_alloc((size_t) NA * NB * NC, sizeof(DATA_TYPE));
  DATA_TYPE (*A)[ND][NC] = corpus_alloc((size_t) NA * ND * NC, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[ND] = corpus_alloc((size_t) NB * ND, sizeof(DATA_TYPE));
  corpus_init(&C[0][0][0], (size_t) NA * NB * NC, 0);
  corpus_init(&A[0][0][0], (size_t) NA * ND * NC, 1);
  corpus_init(&B[0][0], (size_t) NB * ND, 2);
  kernel_contraction_3d(C, A, B);
  corpus_dump("C", &C[0][0][0], (size_t) NA * NB * NC);
  free((void *) C);
  free((void *) A);
  free((void *) B);
  return 0;
}
