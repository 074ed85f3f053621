/* The hot loop nest of the example program: C += A * B.
 * tss tiles the #pragma scop region; the tile sizes come from tiles.h. */
void kernel(int ni, int nj, int nk, double C[ni][nj], double A[ni][nk], double B[nk][nj])
{
  int i, j, k;
#pragma scop
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++)
      for (k = 0; k < nk; k++)
        C[i][j] += A[i][k] * B[k][j];
#pragma endscop
}
