/* Minimal stand-in for PolyBench/C's polybench.h, written for tss.
 *
 * It provides the macros that PolyBench-style kernels use (array
 * declarations, loop bounds, dumping) so the kernels in this folder compile
 * without the PolyBench distribution. With -DPOLYBENCH_DUMP_ARRAYS every
 * output array is printed exactly (hexadecimal floats) on stdout, which is
 * how tss's tests compare tiled and untiled results. */
#ifndef TSS_POLYBENCH_H
#define TSS_POLYBENCH_H

#include <stdio.h>
#include <stdlib.h>

#ifndef DATA_TYPE
# define DATA_TYPE double
#endif
#define SCALAR_VAL(x) x
#define SQRT_FUN(x) sqrt(x)

#define POLYBENCH_LOOP_BOUND(x, y) y
#define POLYBENCH_1D(var, d1, ddim1) var[d1]
#define POLYBENCH_2D(var, d1, d2, ddim1, ddim2) var[d1][d2]
#define POLYBENCH_1D_ARRAY_DECL(var, type, d1, ddim1) \
  type (*var)[d1] = (type (*)[d1]) polybench_alloc_data((size_t) (d1), sizeof(type))
#define POLYBENCH_2D_ARRAY_DECL(var, type, d1, d2, ddim1, ddim2) \
  type (*var)[d1][d2] = (type (*)[d1][d2]) polybench_alloc_data((size_t) (d1) * (d2), sizeof(type))
#define POLYBENCH_ARRAY(x) *x
#define POLYBENCH_FREE_ARRAY(x) free((void *) x)

/* -DPOLYBENCH_TIME prints the kernel's wall time in seconds, as PolyBench does. */
#ifdef POLYBENCH_TIME
# include <time.h>
static double polybench_t_start, polybench_t_end;
static double polybench_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}
# define polybench_start_instruments (polybench_t_start = polybench_now())
# define polybench_stop_instruments (polybench_t_end = polybench_now())
# define polybench_print_instruments printf("%0.6f\n", polybench_t_end - polybench_t_start)
#else
# define polybench_start_instruments
# define polybench_stop_instruments
# define polybench_print_instruments
#endif
#define polybench_prevent_dce(func) func

#define POLYBENCH_DUMP_TARGET stdout
#define DATA_PRINTF_MODIFIER "%a "
#define POLYBENCH_DUMP_START fprintf(POLYBENCH_DUMP_TARGET, "==BEGIN DUMP_ARRAYS==\n")
#define POLYBENCH_DUMP_FINISH fprintf(POLYBENCH_DUMP_TARGET, "==END   DUMP_ARRAYS==\n")
#define POLYBENCH_DUMP_BEGIN(s) fprintf(POLYBENCH_DUMP_TARGET, "begin dump: %s", s)
#define POLYBENCH_DUMP_END(s) fprintf(POLYBENCH_DUMP_TARGET, "\nend   dump: %s\n", s)

static void *polybench_alloc_data(size_t n, size_t elt_size)
{
  void *p = calloc(n ? n : 1, elt_size);
  if (!p) {
    fprintf(stderr, "polybench: out of memory\n");
    exit(1);
  }
  return p;
}

/* Dumps a 2-D array only when asked, as PolyBench does. */
#ifdef POLYBENCH_DUMP_ARRAYS
# define polybench_dump_2d(name, a, d1, d2)                                   \
  do {                                                                       \
    POLYBENCH_DUMP_BEGIN(name);                                              \
    for (int tss_i_ = 0; tss_i_ < (d1); tss_i_++)                            \
      for (int tss_j_ = 0; tss_j_ < (d2); tss_j_++) {                        \
        if ((tss_i_ * (d2) + tss_j_) % 20 == 0)                              \
          fprintf(POLYBENCH_DUMP_TARGET, "\n");                              \
        fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, (a)[tss_i_][tss_j_]); \
      }                                                                      \
    POLYBENCH_DUMP_END(name);                                                \
  } while (0)
#else
# define polybench_dump_2d(name, a, d1, d2) ((void) 0)
#endif

#endif
