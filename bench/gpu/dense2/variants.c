#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void syrk_plain(int n, double alpha, double beta, const double a[n][n],
                   const double b[n][n], double c[n][n])
{
#pragma translate kernel syrk_plain
#pragma translate tag_reads("a", "row", "i")
#pragma translate tag_reads("a", "col", "j")
#pragma translate split_iname("i", 128, outer_tag="g.1")
#pragma translate split_iname("i_inner", 16, outer_tag="unr", inner_tag="l.1")
#pragma translate split_iname("j", 64, outer_tag="g.0")
#pragma translate split_iname("j_inner", 4, outer_tag="l.0", inner_tag="unr")
#pragma translate split_iname("k", 16)
#pragma translate split_iname("k_inner", 2, inner_tag="unr")
#pragma translate privatize_temporaries_with_inames("i_inner_outer,j_inner_inner", "acc")
#pragma translate add_prefetch("a$row", ["i_inner_outer", "i_inner_inner", "k_inner_outer", "k_inner_inner"], default_tag="l.auto", within="iname:k_inner_inner")
#pragma translate add_prefetch("a$col", ["k_inner_outer", "k_inner_inner", "j_inner_outer", "j_inner_inner"], default_tag="l.auto", within="iname:k_inner_inner")
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {
      double acc = beta * c[i][j];
      for (int k = 0; k < n; k++)
        acc += alpha * a[i][k] * a[j][k];
      c[i][j] = acc;
    }
#pragma translate end kernel
}

static void syrk_pad0(int n, double alpha, double beta, const double a[n][n],
                   const double b[n][n], double c[n][n])
{
#pragma translate kernel syrk_pad0
#pragma translate tag_reads("a", "row", "i")
#pragma translate tag_reads("a", "col", "j")
#pragma translate split_iname("i", 128, outer_tag="g.1")
#pragma translate split_iname("i_inner", 16, outer_tag="unr", inner_tag="l.1")
#pragma translate split_iname("j", 64, outer_tag="g.0")
#pragma translate split_iname("j_inner", 4, outer_tag="l.0", inner_tag="unr")
#pragma translate split_iname("k", 16)
#pragma translate split_iname("k_inner", 2, inner_tag="unr")
#pragma translate privatize_temporaries_with_inames("i_inner_outer,j_inner_inner", "acc")
#pragma translate add_prefetch("a$row", ["i_inner_outer", "i_inner_inner", "k_inner_outer", "k_inner_inner"], default_tag="l.auto", within="iname:k_inner_inner")
#pragma translate add_prefetch("a$col", ["k_inner_outer", "k_inner_inner", "j_inner_outer", "j_inner_inner"], default_tag="l.auto", within="iname:k_inner_inner", storage_axes=[1, 0])
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {
      double acc = beta * c[i][j];
      for (int k = 0; k < n; k++)
        acc += alpha * a[i][k] * a[j][k];
      c[i][j] = acc;
    }
#pragma translate end kernel
}

static void syrk_pad1(int n, double alpha, double beta, const double a[n][n],
                   const double b[n][n], double c[n][n])
{
#pragma translate kernel syrk_pad1
#pragma translate tag_reads("a", "row", "i")
#pragma translate tag_reads("a", "col", "j")
#pragma translate split_iname("i", 128, outer_tag="g.1")
#pragma translate split_iname("i_inner", 16, outer_tag="unr", inner_tag="l.1")
#pragma translate split_iname("j", 64, outer_tag="g.0")
#pragma translate split_iname("j_inner", 4, outer_tag="l.0", inner_tag="unr")
#pragma translate split_iname("k", 16)
#pragma translate split_iname("k_inner", 2, inner_tag="unr")
#pragma translate privatize_temporaries_with_inames("i_inner_outer,j_inner_inner", "acc")
#pragma translate add_prefetch("a$row", ["i_inner_outer", "i_inner_inner", "k_inner_outer", "k_inner_inner"], default_tag="l.auto", within="iname:k_inner_inner")
#pragma translate add_prefetch("a$col", ["k_inner_outer", "k_inner_inner", "j_inner_outer", "j_inner_inner"], default_tag="l.auto", within="iname:k_inner_inner", storage_axes=[1, 0], storage_padding=1)
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {
      double acc = beta * c[i][j];
      for (int k = 0; k < n; k++)
        acc += alpha * a[i][k] * a[j][k];
      c[i][j] = acc;
    }
#pragma translate end kernel
}

static void syrk_square(int n, double alpha, double beta, const double a[n][n],
                   const double b[n][n], double c[n][n])
{
#pragma translate kernel syrk_square
#pragma translate tag_reads("a", "row", "i")
#pragma translate tag_reads("a", "col", "j")
#pragma translate split_iname("i", 128, outer_tag="g.1")
#pragma translate split_iname("i_inner", 16, outer_tag="unr", inner_tag="l.1")
#pragma translate split_iname("j", 64, outer_tag="g.0")
#pragma translate split_iname("j_inner", 4, outer_tag="l.0", inner_tag="unr")
#pragma translate split_iname("k", 16)
#pragma translate split_iname("k_inner", 2, inner_tag="unr")
#pragma translate privatize_temporaries_with_inames("i_inner_outer,j_inner_inner", "acc")
#pragma translate add_prefetch("a$row", ["i_inner_outer", "i_inner_inner", "k_inner_outer", "k_inner_inner"], default_tag="l.auto", within="iname:k_inner_inner")
#pragma translate add_prefetch("a$col", ["k_inner_outer", "k_inner_inner", "j_inner_outer", "j_inner_inner"], default_tag="l.auto", within="iname:k_inner_inner", storage_axes=[1, 0], storage_padding=2)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double acc = beta * c[i][j];
      for (int k = 0; k < n; k++)
        acc += alpha * a[i][k] * a[j][k];
      c[i][j] = acc;
    }
#pragma translate end kernel
}

static void gemm_fma(int n, double alpha, double beta, const double a[n][n],
                   const double b[n][n], double c[n][n])
{
#pragma translate kernel gemm_fma
#pragma translate set_options("fp_contract")
#pragma translate split_iname("i", 128, outer_tag="g.1")
#pragma translate split_iname("i_inner", 16, outer_tag="unr", inner_tag="l.1")
#pragma translate split_iname("j", 64, outer_tag="g.0")
#pragma translate split_iname("j_inner", 4, outer_tag="l.0", inner_tag="unr")
#pragma translate split_iname("k", 16)
#pragma translate split_iname("k_inner", 2, inner_tag="unr")
#pragma translate privatize_temporaries_with_inames("i_inner_outer,j_inner_inner", "acc")
#pragma translate add_prefetch("a", ["i_inner_outer", "i_inner_inner", "k_inner_outer", "k_inner_inner"], default_tag="l.auto", within="iname:k_inner_inner")
#pragma translate add_prefetch("b", ["k_inner_outer", "k_inner_inner", "j_inner_outer", "j_inner_inner"], default_tag="l.auto", within="iname:k_inner_inner")
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double acc = beta * c[i][j];
      for (int k = 0; k < n; k++)
        acc += alpha * a[i][k] * b[k][j];
      c[i][j] = acc;
    }
#pragma translate end kernel
}

static void gemm_k32(int n, double alpha, double beta, const double a[n][n],
                   const double b[n][n], double c[n][n])
{
#pragma translate kernel gemm_k32
#pragma translate split_iname("i", 128, outer_tag="g.1")
#pragma translate split_iname("i_inner", 16, outer_tag="unr", inner_tag="l.1")
#pragma translate split_iname("j", 64, outer_tag="g.0")
#pragma translate split_iname("j_inner", 4, outer_tag="l.0", inner_tag="unr")
#pragma translate split_iname("k", 32)
#pragma translate split_iname("k_inner", 2, inner_tag="unr")
#pragma translate privatize_temporaries_with_inames("i_inner_outer,j_inner_inner", "acc")
#pragma translate add_prefetch("a", ["i_inner_outer", "i_inner_inner", "k_inner_outer", "k_inner_inner"], default_tag="l.auto", within="iname:k_inner_inner")
#pragma translate add_prefetch("b", ["k_inner_outer", "k_inner_inner", "j_inner_outer", "j_inner_inner"], default_tag="l.auto", within="iname:k_inner_inner")
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double acc = beta * c[i][j];
      for (int k = 0; k < n; k++)
        acc += alpha * a[i][k] * b[k][j];
      c[i][j] = acc;
    }
#pragma translate end kernel
}

static void gemm_8x8(int n, double alpha, double beta, const double a[n][n],
                   const double b[n][n], double c[n][n])
{
#pragma translate kernel gemm_8x8
#pragma translate split_iname("i", 128, outer_tag="g.1")
#pragma translate split_iname("i_inner", 16, outer_tag="unr", inner_tag="l.1")
#pragma translate split_iname("j", 128, outer_tag="g.0")
#pragma translate split_iname("j_inner", 64, outer_tag="unr")
#pragma translate split_iname("j_inner_inner", 4, outer_tag="l.0", inner_tag="unr")
#pragma translate split_iname("k", 16)
#pragma translate split_iname("k_inner", 2, inner_tag="unr")
#pragma translate privatize_temporaries_with_inames("i_inner_outer,j_inner_outer,j_inner_inner_inner", "acc")
#pragma translate add_prefetch("a", ["i_inner_outer", "i_inner_inner", "k_inner_outer", "k_inner_inner"], default_tag="l.auto", within="iname:k_inner_inner")
#pragma translate add_prefetch("b", ["k_inner_outer", "k_inner_inner", "j_inner_outer", "j_inner_inner_outer", "j_inner_inner_inner"], default_tag="l.auto", within="iname:k_inner_inner")
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double acc = beta * c[i][j];
      for (int k = 0; k < n; k++)
        acc += alpha * a[i][k] * b[k][j];
      c[i][j] = acc;
    }
#pragma translate end kernel
}

static double *filled(long count, int seed)
{
  double *p = malloc((count > 0 ? count : 1) * sizeof *p);
  for (long i = 0; i < count; i++)
    p[i] = (double)((i * seed + 1) % 101) / 101.0;
  return p;
}

static double checksum(const double *p, long count)
{
  double s = 0.0;
  for (long i = 0; i < count; i++)
    s += p[i] * (double)(i % 7 + 1);
  return s;
}

static int wanted(const char *only, const char *name)
{
  size_t len = strlen(name);
  if (!*only)
    return 1;
  for (const char *p = only; p != NULL; p = strchr(p, ',')) {
    p += *p == ',';
    if (strncmp(p, name, len) == 0 && (p[len] == ',' || p[len] == '\0'))
      return 1;
  }
  return 0;
}

/* Usage: variants [n] [reps] [comma list of variants]; prints one checksum per variant,
 * the same as polybench's syrk (seed 29) or gemm_pb (seed 13) for the same n and reps. */
int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 2048, reps = argc > 2 ? atoi(argv[2]) : 3;
  const char *only = argc > 3 ? argv[3] : "";
  long nn = (long)n * n;
  double *a = filled(nn, 3), *b = filled(nn, 5);
  if (wanted(only, "syrk_plain")) {
    double *c = filled(nn, 29);
    for (int r = 0; r < reps; r++)
      syrk_plain(n, 1.5, 1.2, (const double (*)[n])a, (const double (*)[n])b, (double (*)[n])c);
    printf("syrk_plain %.17g\n", checksum(c, nn));
    free(c);
  }
  if (wanted(only, "syrk_pad0")) {
    double *c = filled(nn, 29);
    for (int r = 0; r < reps; r++)
      syrk_pad0(n, 1.5, 1.2, (const double (*)[n])a, (const double (*)[n])b, (double (*)[n])c);
    printf("syrk_pad0 %.17g\n", checksum(c, nn));
    free(c);
  }
  if (wanted(only, "syrk_pad1")) {
    double *c = filled(nn, 29);
    for (int r = 0; r < reps; r++)
      syrk_pad1(n, 1.5, 1.2, (const double (*)[n])a, (const double (*)[n])b, (double (*)[n])c);
    printf("syrk_pad1 %.17g\n", checksum(c, nn));
    free(c);
  }
  if (wanted(only, "syrk_square")) {
    double *c = filled(nn, 29);
    for (int r = 0; r < reps; r++)
      syrk_square(n, 1.5, 1.2, (const double (*)[n])a, (const double (*)[n])b, (double (*)[n])c);
    printf("syrk_square %.17g\n", checksum(c, nn));
    free(c);
  }
  if (wanted(only, "gemm_fma")) {
    double *c = filled(nn, 13);
    for (int r = 0; r < reps; r++)
      gemm_fma(n, 1.5, 1.2, (const double (*)[n])a, (const double (*)[n])b, (double (*)[n])c);
    printf("gemm_fma %.17g\n", checksum(c, nn));
    free(c);
  }
  if (wanted(only, "gemm_k32")) {
    double *c = filled(nn, 13);
    for (int r = 0; r < reps; r++)
      gemm_k32(n, 1.5, 1.2, (const double (*)[n])a, (const double (*)[n])b, (double (*)[n])c);
    printf("gemm_k32 %.17g\n", checksum(c, nn));
    free(c);
  }
  if (wanted(only, "gemm_8x8")) {
    double *c = filled(nn, 13);
    for (int r = 0; r < reps; r++)
      gemm_8x8(n, 1.5, 1.2, (const double (*)[n])a, (const double (*)[n])b, (double (*)[n])c);
    printf("gemm_8x8 %.17g\n", checksum(c, nn));
    free(c);
  }
  return 0;
}
