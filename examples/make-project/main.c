/* Runs the tiled kernel and checks it against a plain triple loop. */
#include <stdio.h>
#include <stdlib.h>

#define NI 300
#define NJ 280
#define NK 260

void kernel(int ni, int nj, int nk, double C[ni][nj], double A[ni][nk], double B[nk][nj]);

static double C[NI][NJ], R[NI][NJ], A[NI][NK], B[NK][NJ];

int main(void)
{
  for (int i = 0; i < NI; i++)
    for (int k = 0; k < NK; k++)
      A[i][k] = (double) ((i * 3 + k) % 17) / 17;
  for (int k = 0; k < NK; k++)
    for (int j = 0; j < NJ; j++)
      B[k][j] = (double) ((k + 5 * j) % 13) / 13;
  kernel(NI, NJ, NK, C, A, B);
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      for (int k = 0; k < NK; k++)
        R[i][j] += A[i][k] * B[k][j];
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      if (C[i][j] != R[i][j]) {
        printf("mismatch at %d %d\n", i, j);
        return 1;
      }
  printf("ok: tiles TSS_T1=%d TSS_T2=%d TSS_T3=%d\n", TSS_T1, TSS_T2, TSS_T3);
  return 0;
}
