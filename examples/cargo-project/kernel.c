/* Symmetric rank-k update of the lower triangle, C += A * A^T: a
 * triangular nest for tss to tile. Called from Rust (src/main.rs). */
void syrk_lower(int n, int m, double C[n][n], double A[n][m])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      for (int k = 0; k < m; k++)
        C[i][j] += A[i][k] * A[j][k];
#pragma endscop
}
