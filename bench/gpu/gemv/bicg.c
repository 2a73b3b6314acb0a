/* bicg mapping variants (h29): s = A^T r and q = A p in one region, so both matrix-vector
 * shapes share one launch.  Usage: bicg [n] [reps]; TRANSLATE_PROFILE=1 gives the kernel time
 * per region; all variants print the same checksums (sums in source order). */
#include <stdio.h>
#include <stdlib.h>

#define BODY \
  for (int j = 0; j < n; j++) { \
    double acc = 0.0; \
    for (int i = 0; i < n; i++) \
      acc += r[i] * a[i][j]; \
    s[j] = acc; \
  } \
  for (int i = 0; i < n; i++) { \
    double acc = 0.0; \
    for (int j = 0; j < n; j++) \
      acc += a[i][j] * p[j]; \
    q[i] = acc; \
  }
#define ARGS int n, const double a[n][n], const double r[n], const double p[n], double s[n], \
             double q[n]

static void b_auto(ARGS)
{
#pragma translate kernel b_auto
  BODY
#pragma translate end kernel
}

static void b_t32_n61(ARGS)
{
#pragma translate kernel b_t32_n61
#pragma translate split_iname("j", 32, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("i", 32)
#pragma translate add_prefetch("a", ["j_inner", "i_inner"], dim_arg_names=["a_i_dim_0", "a_i_dim_1"], default_tag=None, temporary_address_space="local", within="iname:i_inner")
#pragma translate tag_inames("a_i_dim_1:l.0, a_i_dim_0:unr")
#pragma translate add_prefetch("r", ["i_inner"], default_tag="l.auto", within="iname:i_inner")
#pragma translate split_iname("i_1", 32, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("j_1", 61)
#pragma translate add_prefetch("a", ["i_1_inner", "j_1_inner"], dim_arg_names=["a_j_1_dim_0", "a_j_1_dim_1"], default_tag=None, temporary_address_space="local", within="iname:j_1_inner")
#pragma translate tag_inames("a_j_1_dim_1:l.0, a_j_1_dim_0:unr")
#pragma translate add_prefetch("p", ["j_1_inner"], default_tag="l.auto", within="iname:j_1_inner")
  BODY
#pragma translate end kernel
}

static void b_t16_n31(ARGS)
{
#pragma translate kernel b_t16_n31
#pragma translate split_iname("j", 32, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("i", 16)
#pragma translate add_prefetch("a", ["j_inner", "i_inner"], dim_arg_names=["a_i_dim_0", "a_i_dim_1"], default_tag=None, temporary_address_space="local", within="iname:i_inner")
#pragma translate tag_inames("a_i_dim_1:l.0, a_i_dim_0:unr")
#pragma translate add_prefetch("r", ["i_inner"], default_tag="l.auto", within="iname:i_inner")
#pragma translate split_iname("i_1", 32, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("j_1", 31)
#pragma translate add_prefetch("a", ["i_1_inner", "j_1_inner"], dim_arg_names=["a_j_1_dim_0", "a_j_1_dim_1"], default_tag=None, temporary_address_space="local", within="iname:j_1_inner")
#pragma translate tag_inames("a_j_1_dim_1:l.0, a_j_1_dim_0:unr")
#pragma translate add_prefetch("p", ["j_1_inner"], default_tag="l.auto", within="iname:j_1_inner")
  BODY
#pragma translate end kernel
}

static void b_t32_n31(ARGS)
{
#pragma translate kernel b_t32_n31
#pragma translate split_iname("j", 32, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("i", 32)
#pragma translate add_prefetch("a", ["j_inner", "i_inner"], dim_arg_names=["a_i_dim_0", "a_i_dim_1"], default_tag=None, temporary_address_space="local", within="iname:i_inner")
#pragma translate tag_inames("a_i_dim_1:l.0, a_i_dim_0:unr")
#pragma translate add_prefetch("r", ["i_inner"], default_tag="l.auto", within="iname:i_inner")
#pragma translate split_iname("i_1", 32, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("j_1", 31)
#pragma translate add_prefetch("a", ["i_1_inner", "j_1_inner"], dim_arg_names=["a_j_1_dim_0", "a_j_1_dim_1"], default_tag=None, temporary_address_space="local", within="iname:j_1_inner")
#pragma translate tag_inames("a_j_1_dim_1:l.0, a_j_1_dim_0:unr")
#pragma translate add_prefetch("p", ["j_1_inner"], default_tag="l.auto", within="iname:j_1_inner")
  BODY
#pragma translate end kernel
}

static void b_t64_n63(ARGS)
{
#pragma translate kernel b_t64_n63
#pragma translate split_iname("j", 32, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("i", 64)
#pragma translate add_prefetch("a", ["j_inner", "i_inner"], dim_arg_names=["a_i_dim_0", "a_i_dim_1"], default_tag=None, temporary_address_space="local", within="iname:i_inner")
#pragma translate tag_inames("a_i_dim_1:l.0, a_i_dim_0:unr")
#pragma translate add_prefetch("r", ["i_inner"], default_tag="l.auto", within="iname:i_inner")
#pragma translate split_iname("i_1", 32, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("j_1", 63)
#pragma translate add_prefetch("a", ["i_1_inner", "j_1_inner"], dim_arg_names=["a_j_1_dim_0", "a_j_1_dim_1"], default_tag=None, temporary_address_space="local", within="iname:j_1_inner")
#pragma translate tag_inames("a_j_1_dim_1:l.0, a_j_1_dim_0:unr")
#pragma translate add_prefetch("p", ["j_1_inner"], default_tag="l.auto", within="iname:j_1_inner")
  BODY
#pragma translate end kernel
}

static void b_old(ARGS)
{
#pragma translate kernel b_old
#pragma translate split_iname("j", 32, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("i", 256)
#pragma translate add_prefetch("r", ["i_inner"], default_tag="l.auto", within="iname:i_inner")
#pragma translate split_iname("i_1", 32, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("j_1", 31)
#pragma translate add_prefetch("a", ["i_1_inner", "j_1_inner"], default_tag="l.auto", within="iname:j_1_inner")
#pragma translate add_prefetch("p", ["j_1_inner"], default_tag="l.auto", within="iname:j_1_inner")
  BODY
#pragma translate end kernel
}

static double *filled(long count, int seed)
{
  double *v = malloc(count * sizeof *v);
  for (long i = 0; i < count; i++)
    v[i] = (double)((i * seed + 1) % 101) / 101.0;
  return v;
}

static double checksum(const double *v, long count)
{
  double sum = 0.0;
  for (long i = 0; i < count; i++)
    sum += v[i] * (double)(i % 7 + 1);
  return sum;
}

typedef void (*variant)(ARGS);

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 16384, reps = argc > 2 ? atoi(argv[2]) : 5;
  double *a = filled((long)n * n, 3), *r = filled(n, 5), *p = filled(n, 7);
  double *s = filled(n, 1), *q = filled(n, 1);
  static const struct { const char *name; variant fn; } V[] = {
    {"b_auto", b_auto}, {"b_old", b_old},
    {"b_t32_n61", b_t32_n61},
    {"b_t16_n31", b_t16_n31},
    {"b_t32_n31", b_t32_n31},
    {"b_t64_n63", b_t64_n63},
  };
#pragma translate data copyin(a[0:n*n], r[0:n], p[0:n]) create(s[0:n], q[0:n])
  for (size_t v = 0; v < sizeof V / sizeof V[0]; v++) {
    for (int k = 0; k < reps; k++)
      V[v].fn(n, (const double (*)[n])a, r, p, s, q);
#pragma translate update host(s[0:n], q[0:n])
    printf("%s %.17g %.17g\n", V[v].name, checksum(s, n), checksum(q, n));
  }
#pragma translate end data
  return 0;
}
