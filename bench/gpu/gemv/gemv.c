/* Matrix-vector mapping variants (issue 23 item 2, h29): the two gemv shapes of polybench.c,
 * y[i] = sum_j a[i][j] x[j] ("n": row-major rows, scattered per work item) and
 * y[j] = sum_i a[i][j] x[i] ("t": coalesced), each mapped several ways by hand-written
 * pragmas and once automatically.  Every variant sums in source order, so all "n" variants
 * print the same checksum, and all "t" variants.  Usage: gemv [n] [reps].
 * TRANSLATE_PROFILE=1 gives the kernel time per region. */
#include <stdio.h>
#include <stdlib.h>

#define N_BODY \
  for (int i = 0; i < n; i++) { \
    double acc = 0.0; \
    for (int j = 0; j < n; j++) \
      acc += a[i][j] * x[j]; \
    y[i] = acc; \
  }
#define T_BODY \
  for (int j = 0; j < n; j++) { \
    double acc = 0.0; \
    for (int i = 0; i < n; i++) \
      acc += a[i][j] * x[i]; \
    y[j] = acc; \
  }
#define ARGS int n, const double a[n][n], const double x[n], double y[n]

static void n_auto(ARGS)
{
#pragma translate kernel n_auto
  N_BODY
#pragma translate end kernel
}

static void t_auto(ARGS)
{
#pragma translate kernel t_auto
  T_BODY
#pragma translate end kernel
}

static void n_r32_k127(ARGS)
{
#pragma translate kernel n_r32_k127
#pragma translate split_iname("i", 32, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("j", 127)
#pragma translate add_prefetch("a", ["i_inner", "j_inner"], default_tag=None, temporary_address_space="local", within="iname:j_inner")
#pragma translate tag_inames("a_dim_1:l.0, a_dim_0:unr")
#pragma translate add_prefetch("x", ["j_inner"], default_tag="l.auto", within="iname:j_inner")
  N_BODY
#pragma translate end kernel
}

static void n_r32_k123(ARGS)
{
#pragma translate kernel n_r32_k123
#pragma translate split_iname("i", 32, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("j", 123)
#pragma translate add_prefetch("a", ["i_inner", "j_inner"], default_tag=None, temporary_address_space="local", within="iname:j_inner")
#pragma translate tag_inames("a_dim_1:l.0, a_dim_0:unr")
#pragma translate add_prefetch("x", ["j_inner"], default_tag="l.auto", within="iname:j_inner")
  N_BODY
#pragma translate end kernel
}

static void n_r32_k95(ARGS)
{
#pragma translate kernel n_r32_k95
#pragma translate split_iname("i", 32, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("j", 95)
#pragma translate add_prefetch("a", ["i_inner", "j_inner"], default_tag=None, temporary_address_space="local", within="iname:j_inner")
#pragma translate tag_inames("a_dim_1:l.0, a_dim_0:unr")
#pragma translate add_prefetch("x", ["j_inner"], default_tag="l.auto", within="iname:j_inner")
  N_BODY
#pragma translate end kernel
}

static void n_r32_k159(ARGS)
{
#pragma translate kernel n_r32_k159
#pragma translate split_iname("i", 32, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("j", 159)
#pragma translate add_prefetch("a", ["i_inner", "j_inner"], default_tag=None, temporary_address_space="local", within="iname:j_inner")
#pragma translate tag_inames("a_dim_1:l.0, a_dim_0:unr")
#pragma translate add_prefetch("x", ["j_inner"], default_tag="l.auto", within="iname:j_inner")
  N_BODY
#pragma translate end kernel
}

static void n_r64_k63(ARGS)
{
#pragma translate kernel n_r64_k63
#pragma translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("j", 63)
#pragma translate add_prefetch("a", ["i_inner", "j_inner"], default_tag=None, temporary_address_space="local", within="iname:j_inner")
#pragma translate tag_inames("a_dim_1:l.0, a_dim_0:unr")
#pragma translate add_prefetch("x", ["j_inner"], default_tag="l.auto", within="iname:j_inner")
  N_BODY
#pragma translate end kernel
}

static void n_r32_k63(ARGS)
{
#pragma translate kernel n_r32_k63
#pragma translate split_iname("i", 32, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("j", 63)
#pragma translate add_prefetch("a", ["i_inner", "j_inner"], default_tag=None, temporary_address_space="local", within="iname:j_inner")
#pragma translate tag_inames("a_dim_1:l.0, a_dim_0:unr")
#pragma translate add_prefetch("x", ["j_inner"], default_tag="l.auto", within="iname:j_inner")
  N_BODY
#pragma translate end kernel
}

static void t_c32_k64(ARGS)
{
#pragma translate kernel t_c32_k64
#pragma translate split_iname("j", 32, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("i", 64)
#pragma translate add_prefetch("a", ["i_inner", "j_inner"], default_tag=None, temporary_address_space="local", within="iname:i_inner")
#pragma translate tag_inames("a_dim_1:l.0, a_dim_0:unr")
#pragma translate add_prefetch("x", ["i_inner"], default_tag="l.auto", within="iname:i_inner")
  T_BODY
#pragma translate end kernel
}

static void t_c32_k48(ARGS)
{
#pragma translate kernel t_c32_k48
#pragma translate split_iname("j", 32, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("i", 48)
#pragma translate add_prefetch("a", ["i_inner", "j_inner"], default_tag=None, temporary_address_space="local", within="iname:i_inner")
#pragma translate tag_inames("a_dim_1:l.0, a_dim_0:unr")
#pragma translate add_prefetch("x", ["i_inner"], default_tag="l.auto", within="iname:i_inner")
  T_BODY
#pragma translate end kernel
}

static void t_c16_k64(ARGS)
{
#pragma translate kernel t_c16_k64
#pragma translate split_iname("j", 16, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("i", 64)
#pragma translate add_prefetch("a", ["i_inner", "j_inner"], default_tag=None, temporary_address_space="local", within="iname:i_inner")
#pragma translate tag_inames("a_dim_1:l.0, a_dim_0:unr")
#pragma translate add_prefetch("x", ["i_inner"], default_tag="l.auto", within="iname:i_inner")
  T_BODY
#pragma translate end kernel
}

static void t_c32_k32(ARGS)
{
#pragma translate kernel t_c32_k32
#pragma translate split_iname("j", 32, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("i", 32)
#pragma translate add_prefetch("a", ["i_inner", "j_inner"], default_tag=None, temporary_address_space="local", within="iname:i_inner")
#pragma translate tag_inames("a_dim_1:l.0, a_dim_0:unr")
#pragma translate add_prefetch("x", ["i_inner"], default_tag="l.auto", within="iname:i_inner")
  T_BODY
#pragma translate end kernel
}

static double *filled(long count, int seed)
{
  double *p = malloc(count * sizeof *p);
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

typedef void (*variant)(ARGS);

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 16384, reps = argc > 2 ? atoi(argv[2]) : 5;
  double *a = filled((long)n * n, 3), *x = filled(n, 5), *y = filled(n, 7);
  static const struct { const char *name; variant fn; } V[] = {
    {"n_auto", n_auto}, {"t_auto", t_auto},
    {"n_r32_k127", n_r32_k127},
    {"n_r32_k123", n_r32_k123},
    {"n_r32_k95", n_r32_k95},
    {"n_r32_k159", n_r32_k159},
    {"n_r64_k63", n_r64_k63},
    {"n_r32_k63", n_r32_k63},
    {"t_c32_k64", t_c32_k64},
    {"t_c32_k48", t_c32_k48},
    {"t_c16_k64", t_c16_k64},
    {"t_c32_k32", t_c32_k32},
  };
#pragma translate data copyin(a[0:n*n], x[0:n]) create(y[0:n])
  for (size_t v = 0; v < sizeof V / sizeof V[0]; v++) {
    for (int r = 0; r < reps; r++)
      V[v].fn(n, (const double (*)[n])a, x, y);
#pragma translate update host(y[0:n])
    printf("%s %.17g\n", V[v].name, checksum(y, n));
  }
#pragma translate end data
  return 0;
}
