/* Two chained matrix products, T = A * B then D = T * C: two tiled bands
 * in one SCoP. tss tiles the #pragma scop region; the build (tss_tile in
 * CMakeLists.txt) picks the tile sizes. */
void two_products(int ni, int nj, int nk, int nl, double T[ni][nj], double D[ni][nl], double A[ni][nk],
                  double B[nk][nj], double C[nj][nl])
{
  int i, j, k;
#pragma scop
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      T[i][j] = 0.0;
      for (k = 0; k < nk; k++)
        T[i][j] += A[i][k] * B[k][j];
    }
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++)
      for (k = 0; k < nj; k++)
        D[i][j] += T[i][k] * C[k][j];
#pragma endscop
}
