/* three-mm: G = (A B)(C D): three products through two temporaries.
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NI=32..1024, NJ=32..1024, NK=32..1024, NL=32..1024, NM=32..1024 */
#include <corpus.h>

#ifdef TSS_SMALL
# define NI 37
# define NJ 41
# define NK 29
# define NL 23
# define NM 19
#endif
#ifndef NI
# define NI 400
#endif
#ifndef NJ
# define NJ 450
#endif
#ifndef NK
# define NK 500
#endif
#ifndef NL
# define NL 550
#endif
#ifndef NM
# define NM 600
#endif

static void kernel_three_mm(DATA_TYPE G[restrict NI][NL], DATA_TYPE E[restrict NI][NJ], DATA_TYPE F[restrict NJ][NL], DATA_TYPE A[restrict NI][NK], DATA_TYPE B[restrict NK][NJ], DATA_TYPE C[restrict NJ][NM], DATA_TYPE D[restrict NM][NL])
{
  int i, j, k;

#pragma scop
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      for (k = 0; k < NK; k++)
        E[i][j] += A[i][k] * B[k][j];
  for (i = 0; i < NJ; i++)
    for (j = 0; j < NL; j++)
      for (k = 0; k < NM; k++)
        F[i][j] += C[i][k] * D[k][j];
  for (i = 0; i < NI; i++)
    for (j = 0; j < NL; j++)
      for (k = 0; k < NJ; k++)
        G[i][j] += E[i][k] * F[k][j];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*G)[NL] = corpus_alloc((size_t) NI * NL, sizeof(DATA_TYPE));
  DATA_TYPE (*E)[NJ] = corpus_alloc((size_t) NI * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*F)[NL] = corpus_alloc((size_t) NJ * NL, sizeof(DATA_TYPE));
  DATA_TYPE (*A)[NK] = corpus_alloc((size_t) NI * NK, sizeof(DATA_TYPE));
  DATA_TYPE (*B)[NJ] = corpus_alloc((size_t) NK * NJ, sizeof(DATA_TYPE));
  DATA_TYPE (*C)[NM] = corpus_alloc((size_t) NJ * NM, sizeof(DATA_TYPE));
  DATA_TYPE (*D)[NL] = corpus_alloc((size_t) NM * NL, sizeof(DATA_TYPE));
  corpus_init(&G[0][0], (size_t) NI * NL, 0);
  corpus_init(&E[0][0], (size_t) NI * NJ, 1);
  corpus_init(&F[0][0], (size_t) NJ * NL, 2);
  corpus_init(&A[0][0], (size_t) NI * NK, 3);
  corpus_init(&B[0][0], (size_t) NK * NJ, 4);
  corpus_init(&C[0][0], (size_t) NJ * NM, 5);
  corpus_init(&D[0][0], (size_t) NM * NL, 6);
  kernel_three_mm(G, E, F, A, B, C, D);
  corpus_dump("G", &G[0][0], (size_t) NI * NL);
  corpus_dump("E", &E[0][0], (size_t) NI * NJ);
  corpus_dump("F", &F[0][0], (size_t) NJ * NL);
  free((void *) G);
  free((void *) E);
  free((void *) F);
  free((void *) A);
  free((void *) B);
  free((void *) C);
  free((void *) D);
  return 0;
}
