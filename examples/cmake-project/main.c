/* Runs the tiled kernel and checks it against plain loops. */
#include <stdio.h>

#include "kernel.tiles.h"

#define NI 240
#define NJ 200
#define NK 220
#define NL 180

void two_products(int ni, int nj, int nk, int nl, double T[ni][nj], double D[ni][nl], double A[ni][nk],
                  double B[nk][nj], double C[nj][nl]);

static double T[NI][NJ], D[NI][NL], A[NI][NK], B[NK][NJ], C[NJ][NL];
static double RT[NI][NJ], RD[NI][NL];

int main(void)
{
  for (int i = 0; i < NI; i++)
    for (int k = 0; k < NK; k++)
      A[i][k] = (double) ((i + 2 * k) % 11) / 11;
  for (int k = 0; k < NK; k++)
    for (int j = 0; j < NJ; j++)
      B[k][j] = (double) ((3 * k + j) % 7) / 7;
  for (int j = 0; j < NJ; j++)
    for (int l = 0; l < NL; l++)
      C[j][l] = (double) ((j * l + 1) % 5) / 5;
  two_products(NI, NJ, NK, NL, T, D, A, B, C);
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      for (int k = 0; k < NK; k++)
        RT[i][j] += A[i][k] * B[k][j];
  for (int i = 0; i < NI; i++)
    for (int l = 0; l < NL; l++)
      for (int j = 0; j < NJ; j++)
        RD[i][l] += RT[i][j] * C[j][l];
  for (int i = 0; i < NI; i++)
    for (int l = 0; l < NL; l++)
      if (D[i][l] != RD[i][l]) {
        printf("mismatch at %d %d\n", i, l);
        return 1;
      }
  printf("ok: tiles TSS_T1=%d TSS_T2=%d TSS_T3=%d\n", TSS_T1, TSS_T2, TSS_T3);
  return 0;
}
