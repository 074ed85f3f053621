/* dense-grad-w: A dense layer's weight gradient: dw[o][i] += dy[b][o] * x[b][i], reduction over the batch innermost.
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NB=1..512, NO=16..4096, NIN=16..4096 */
#include <corpus.h>

#ifdef TSS_SMALL
# define NB 5
# define NO 37
# define NIN 29
#endif
#ifndef NB
# define NB 64
#endif
#ifndef NO
# define NO 1024
#endif
#ifndef NIN
# define NIN 1024
#endif

static void kernel_dense_grad_w(DATA_TYPE dw[restrict NO][NIN], DATA_TYPE dy[restrict NB][NO], DATA_TYPE x[restrict NB][NIN])
{
  int b, o, i;

#pragma scop
  for (o = 0; o < NO; o++)
    for (i = 0; i < NIN; i++)
      for (b = 0; b < NB; b++)
        dw[o][i] += dy[b][o] * x[b][i];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*dw)[NIN] = corpus_alloc((size_t) NO * NIN, sizeof(DATA_TYPE));
  DATA_TYPE (*dy)[NO] = corpus_alloc((size_t) NB * NO, sizeof(DATA_TYPE));
  DATA_TYPE (*x)[NIN] = corpus_alloc((size_t) NB * NIN, sizeof(DATA_TYPE));
  corpus_init(&dw[0][0], (size_t) NO * NIN, 0);
  corpus_init(&dy[0][0], (size_t) NB * NO, 1);
  corpus_init(&x[0][0], (size_t) NB * NIN, 2);
  kernel_dense_grad_w(dw, dy, x);
  corpus_dump("dw", &dw[0][0], (size_t) NO * NIN);
  free((void *) dw);
  free((void *) dy);
  free((void *) x);
  return 0;
}
