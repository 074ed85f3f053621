/* Support for tss's kernel corpus (written for tss).
 *
 * Allocation, deterministic initialisation and exact dumping for the kernels
 * in corpus/. With -DCORPUS_DUMP every output array is printed exactly
 * (hexadecimal floats), which is how tss's tests compare tiled and original
 * results. DATA_TYPE is double unless the kernel defines it first. */
#ifndef TSS_CORPUS_H
#define TSS_CORPUS_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef DATA_TYPE
# define DATA_TYPE double
#endif

static void *corpus_alloc(size_t n, size_t elt_size)
{
  void *p = calloc(n ? n : 1, elt_size);
  if (!p) {
    fprintf(stderr, "corpus: out of memory\n");
    exit(1);
  }
  return p;
}

/* Values in (0, 1], different per array `k`: no zero divisors, and a wrong
 * schedule changes the output. */
static void corpus_init(DATA_TYPE *a, size_t n, int k)
{
  for (size_t i = 0; i < n; i++)
    a[i] = (DATA_TYPE) ((i * (7 + 2 * k) + 3 * k + 1) % 1021 + 1) / 1021;
}

static void corpus_dump(const char *name, const DATA_TYPE *a, size_t n)
{
#ifdef CORPUS_DUMP
  printf("begin dump: %s", name);
  for (size_t i = 0; i < n; i++)
    printf("%s%a ", i % 20 == 0 ? "\n" : "", (double) a[i]);
  printf("\nend   dump: %s\n", name);
#else
  (void) name; (void) a; (void) n;
#endif
}

#endif
