void scale_rows(int n, int m, double a[n][m])
{
#pragma translate kernel scale_k
#pragma translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i][j] = 2.0 * a[i][j];
#pragma translate end kernel
}
