/* sdense-layer-t: Fully connected layer in single precision, weights stored in x out: out[b][o] += x[b][i] * w[i][o].
 *
 * Written for tss's kernel corpus (scripts/corpus.py writes this file from its spec).
 * The loop nest between '#pragma scop' and '#pragma endscop' is what `tss tile`
 * transforms. Sizes are macros (-DN=...; -DTSS_SMALL picks the tests' small odd
 * ones), and -DCORPUS_DUMP prints the output arrays exactly.
 * tss-range: NB=1..512, NO=16..4096, NIN=16..4096 */
#define DATA_TYPE float
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

static void kernel_sdense_layer_t(DATA_TYPE out[restrict NB][NO], DATA_TYPE x[restrict NB][NIN], DATA_TYPE w[restrict NIN][NO])
{
  int b, o, i;

#pragma scop
  for (b = 0; b < NB; b++)
    for (i = 0; i < NIN; i++)
      for (o = 0; o < NO; o++)
        out[b][o] += x[b][i] * w[i][o];
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*out)[NO] = corpus_alloc((size_t) NB * NO, sizeof(DATA_TYPE));
  DATA_TYPE (*x)[NIN] = corpus_alloc((size_t) NB * NIN, sizeof(DATA_TYPE));
  DATA_TYPE (*w)[NO] = corpus_alloc((size_t) NIN * NO, sizeof(DATA_TYPE));
  corpus_init(&out[0][0], (size_t) NB * NO, 0);
  corpus_init(&x[0][0], (size_t) NB * NIN, 1);
  corpus_init(&w[0][0], (size_t) NIN * NO, 2);
  kernel_sdense_layer_t(out, x, w);
  corpus_dump("out", &out[0][0], (size_t) NB * NO);
  free((void *) out);
  free((void *) x);
  free((void *) w);
  return 0;
}
