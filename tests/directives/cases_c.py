"""C cases of the labelled directive set (see tests/directives/cases.py for the format):
(name, label, family, body[, hint[, invalid_directive]])."""

from __future__ import annotations

R, F = "racy", "race_free"

C_CASES: list[tuple] = [
    # ---------------------------------------------------------------- OpenMP: data sharing
    ("c_omp_private_missing", R, "missing private", """
  double t;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    t = a[i] * 2;
    c[i] = t + b[i];
  }
""", "private(t)"),
    ("c_omp_private", F, "missing private", """
  double t;
#pragma omp parallel for private(t)
  for (int i = 0; i < n; i++) {
    t = a[i] * 2;
    c[i] = t + b[i];
  }
"""),
    ("c_omp_body_local", F, "missing private", """
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double t = a[i] * 2;
    c[i] = t + b[i];
  }
"""),
    ("c_omp_inner_index_shared", R, "missing private", """
  int j;
#pragma omp parallel for
  for (int i = 0; i < m; i++)
    for (j = 0; j < m; j++)
      v[i][j] = u[i][j] + u[j][i];
""", "private(j)"),
    ("c_omp_inner_index_private", F, "missing private", """
  int j;
#pragma omp parallel for private(j)
  for (int i = 0; i < m; i++)
    for (j = 0; j < m; j++)
      v[i][j] = u[i][j] + u[j][i];
"""),
    ("c_omp_private_array_missing", R, "private arrays", """
  double w[3];
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    w[0] = a[i];
    w[1] = b[i];
    w[2] = w[0] * w[1];
    c[i] = w[2] + w[0];
  }
""", "private(w)"),
    ("c_omp_private_array", F, "private arrays", """
  double w[3];
#pragma omp parallel for private(w)
  for (int i = 0; i < n; i++) {
    w[0] = a[i];
    w[1] = b[i];
    w[2] = w[0] * w[1];
    c[i] = w[2] + w[0];
  }
"""),
    ("c_omp_private_read", R, "firstprivate read", """
  double t = *s;
#pragma omp parallel for private(t)
  for (int i = 0; i < n; i++)
    c[i] = a[i] * t;
""", "firstprivate(t)"),
    ("c_omp_firstprivate", F, "firstprivate read", """
  double t = *s * 2;
#pragma omp parallel for firstprivate(t)
  for (int i = 0; i < n; i++)
    c[i] = a[i] * t + b[i];
"""),
    ("c_omp_cond_shared_write", R, "missing private", """
  double last = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    if (a[i] > 1.5)
      last = a[i];
    c[i] = b[i] + 1;
  }
  *s = last;
"""),
    ("c_omp_default_none", F, "default(none)", """
  double t;
#pragma omp parallel for default(none) shared(n, a, b, c) private(t)
  for (int i = 0; i < n; i++) {
    t = a[i] + b[i];
    c[i] = t * t;
  }
"""),
    ("c_omp_default_none_unlisted", R, "default(none)", """
#pragma omp parallel for default(none) shared(n, a, c)
  for (int i = 0; i < n; i++)
    c[i] = a[i] + b[i];
""", "b", True),
    # ---------------------------------------------------------------- OpenMP: reductions
    ("c_omp_reduction_missing", R, "missing reduction", """
  double t = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    t += a[i];
  *s = t;
""", "reduction(+:t)"),
    ("c_omp_reduction_sum", F, "reductions", """
  double t = *s;
#pragma omp parallel for reduction(+:t)
  for (int i = 0; i < n; i++)
    t += a[i] * b[i];
  *s = t;
"""),
    ("c_omp_reduction_prod", F, "reductions", """
  double p = 1;
#pragma omp parallel for reduction(*:p)
  for (int i = 0; i < n; i++)
    p *= 1.0 + 0.5 * (i % 2);
  *s = p;
"""),
    ("c_omp_reduction_max", F, "reductions", """
  double t = *s;
#pragma omp parallel for reduction(max:t)
  for (int i = 0; i < n; i++)
    t = a[i] * b[i] > t ? a[i] * b[i] : t;
  *s = t;
"""),
    ("c_omp_reduction_min", F, "reductions", """
  double t = *s;
#pragma omp parallel for reduction(min:t)
  for (int i = 0; i < n; i++)
    t = b[i] < t ? b[i] : t;
  *s = t;
"""),
    ("c_omp_reduction_bitand", F, "reductions", """
  int r = -1;
#pragma omp parallel for reduction(&:r)
  for (int i = 0; i < n; i++)
    r &= ix[i] + 64;
  *k = r;
"""),
    ("c_omp_reduction_bitor", F, "reductions", """
  int r = *k;
#pragma omp parallel for reduction(|:r)
  for (int i = 0; i < n; i++)
    r |= ix[i];
  *k = r;
"""),
    ("c_omp_reduction_bitxor", F, "reductions", """
  int r = *k;
#pragma omp parallel for reduction(^:r)
  for (int i = 0; i < n; i++)
    r ^= ix[i] * 3;
  *k = r;
"""),
    ("c_omp_reduction_and", F, "reductions", """
  int ok = 1;
#pragma omp parallel for reduction(&&:ok)
  for (int i = 0; i < n; i++)
    ok = ok && a[i] > 0;
  *k = ok;
"""),
    ("c_omp_reduction_or", F, "reductions", """
  int neg = 0;
#pragma omp parallel for reduction(||:neg)
  for (int i = 0; i < n; i++)
    neg = neg || b[i] < 0;
  *k = neg;
"""),
    ("c_omp_reduction_integer_sum", F, "reductions", """
  int count = 0;
#pragma omp parallel for reduction(+:count)
  for (int i = 0; i < n; i++)
    if (b[i] > 0)
      count++;
  *k = count;
"""),
    ("c_omp_reduction_wrong_operator", R, "missing reduction", """
  double t = *s;
#pragma omp parallel for reduction(+:t)
  for (int i = 0; i < n; i++)
    t *= 1.0 + 0.5 * (i % 2);
  *s = t;
""", "reduction(*:t)"),
    ("c_omp_reduction_element", R, "missing reduction", """
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    c[0] += a[i];
"""),
    ("c_omp_row_sums", F, "reductions", """
#pragma omp parallel for
  for (int i = 0; i < m; i++) {
    double r = 0;
    for (int j = 0; j < m; j++)
      r += u[i][j];
    v[i][0] = r;
  }
"""),
    # ---------------------------------------------------------------- OpenMP: subscripts
    ("c_omp_neighbour_in_place", R, "out-of-bounds neighbours", """
#pragma omp parallel for
  for (int i = 0; i < n - 1; i++)
    a[i] = 0.5 * (a[i] + a[i + 1]);
"""),
    ("c_omp_neighbour_out_of_bounds", R, "out-of-bounds neighbours", """
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    c[i] = a[i - 1] + a[i + 1];
"""),
    ("c_omp_neighbour", F, "out-of-bounds neighbours", """
#pragma omp parallel for
  for (int i = 1; i < n - 1; i++)
    c[i] = a[i - 1] + a[i + 1] - 2 * a[i];
"""),
    ("c_omp_prefix_sum", R, "collapse over dependent loops", """
#pragma omp parallel for
  for (int i = 1; i < n; i++)
    c[i] = c[i - 1] + a[i];
"""),
    ("c_omp_scatter", R, "indirect subscripts", """
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    c[ix[i]] += a[i];
"""),
    ("c_omp_gather", F, "indirect subscripts", """
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    c[i] = a[ix[i]] + b[i];
"""),
    # ---------------------------------------------------------------- OpenMP: lastprivate
    ("c_omp_lastprivate", F, "lastprivate", """
  double t = 0;
#pragma omp parallel for lastprivate(t)
  for (int i = 0; i < n; i++) {
    t = a[i] + 1;
    c[i] = t * b[i];
  }
  *s = t;
"""),
    ("c_omp_lastprivate_conditional", R, "lastprivate", """
  double t = 0;
#pragma omp parallel for lastprivate(t)
  for (int i = 0; i < n; i++) {
    if (b[i] > 0)
      t = a[i];
    c[i] = b[i] * 2;
  }
  *s = t;
"""),
    ("c_omp_lastprivate_collapse", F, "lastprivate", """
  double t = 0;
  int at = 0;
#pragma omp parallel for collapse(2) lastprivate(t, at)
  for (int i = 0; i < m; i++)
    for (int j = i; j < m; j++) {
      t = u[i][j] * 2 + j;
      at = 100 * i + j;
      v[i][j] = t;
    }
  *s = t;
  *k = at;
"""),
    ("c_omp_lastprivate_downward", F, "lastprivate", """
  double t = 0;
#pragma omp parallel for lastprivate(t)
  for (int i = n - 1; i >= 0; i -= 3) {
    t = a[i] * 2 + b[i];
    c[i] = t;
  }
  *s = t;
"""),
    ("c_omp_lastprivate_read_first", R, "lastprivate", """
  double t = 1;
#pragma omp parallel for lastprivate(t)
  for (int i = 0; i < n; i++) {
    c[i] = t;
    t = a[i] + 1;
  }
  *s = t;
"""),
    # ---------------------------------------------------------------- OpenMP: nowait
    ("c_omp_nowait_dependent", R, "nowait", """
#pragma omp parallel
  {
#pragma omp for nowait
    for (int i = 0; i < n; i++)
      c[i] = a[i] * 2;
#pragma omp for
    for (int i = 0; i < n - 1; i++)
      b[i] = c[i + 1] + 1;
  }
"""),
    ("c_omp_nowait_independent", F, "nowait", """
#pragma omp parallel
  {
#pragma omp for nowait
    for (int i = 0; i < n; i++)
      c[i] = a[i] * 2;
#pragma omp for
    for (int i = 0; i < n; i++)
      b[i] = a[i] + 1;
  }
"""),
    ("c_omp_barrier_between", F, "nowait", """
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++)
      c[i] = a[i] * 2;
#pragma omp for
    for (int i = 0; i < n - 1; i++)
      b[i] = c[i + 1] + 1;
  }
"""),
    # ---------------------------------------------------------------- OpenMP: collapse
    ("c_omp_collapse", F, "collapse over dependent loops", """
#pragma omp parallel for collapse(2)
  for (int i = 0; i < m; i++)
    for (int j = 0; j < m; j++)
      v[i][j] = 2 * u[i][j] + j;
"""),
    ("c_omp_collapse_triangular", F, "collapse over dependent loops", """
#pragma omp parallel for collapse(2)
  for (int i = 0; i < m; i++)
    for (int j = i; j < m; j++)
      v[i][j] = u[i][j] + u[j][i];
"""),
    ("c_omp_collapse_carried", R, "collapse over dependent loops", """
#pragma omp parallel for collapse(2)
  for (int i = 1; i < m; i++)
    for (int j = 0; j < m; j++)
      u[i][j] = u[i - 1][j] + 1;
"""),
    ("c_omp_outer_carried", R, "collapse over dependent loops", """
#pragma omp parallel for
  for (int i = 1; i < m; i++)
    for (int j = 0; j < m; j++)
      u[i][j] = u[i - 1][j] * 0.5 + u[i][j];
"""),
    # ---------------------------------------------------------------- OpenMP: stencils
    ("c_omp_stencil_out_of_place", F, "2-D stencils", """
#pragma omp parallel for collapse(2)
  for (int i = 1; i < m - 1; i++)
    for (int j = 1; j < m - 1; j++)
      v[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
"""),
    ("c_omp_stencil_in_place", R, "2-D stencils", """
#pragma omp parallel for
  for (int i = 1; i < m - 1; i++)
    for (int j = 1; j < m - 1; j++)
      u[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
"""),
    # ---------------------------------------------------------------- OpenMP: other forms
    ("c_omp_simd", F, "other loop directives", """
#pragma omp simd
  for (int i = 0; i < n; i++)
    c[i] = a[i] * b[i];
"""),
    ("c_omp_parallel_for_simd", F, "other loop directives", """
#pragma omp parallel for simd
  for (int i = 0; i < n; i++)
    c[i] = a[i] * b[i] + 1;
"""),
    ("c_omp_target", F, "other loop directives", """
#pragma omp target teams distribute parallel for map(to: a[0:n], b[0:n]) map(from: c[0:n])
  for (int i = 0; i < n; i++)
    c[i] = a[i] - b[i];
"""),
    ("c_omp_schedule", F, "other loop directives", """
#pragma omp parallel for schedule(static, 4) num_threads(2)
  for (int i = 0; i < n; i++)
    c[i] = a[i] + 3 * b[i];
"""),
    # ---------------------------------------------------------------- OpenACC
    ("c_acc_parallel_loop", F, "OpenACC compute", """
#pragma acc parallel loop copyin(a[0:n], b[0:n]) copyout(c[0:n])
  for (int i = 0; i < n; i++)
    c[i] = a[i] + b[i];
"""),
    ("c_acc_private_missing", R, "missing private", """
  double t;
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    t = a[i] * 2;
    c[i] = t + b[i];
  }
""", "private(t)"),
    ("c_acc_private", F, "missing private", """
  double t;
#pragma acc parallel loop private(t)
  for (int i = 0; i < n; i++) {
    t = a[i] * 2;
    c[i] = t + b[i];
  }
"""),
    ("c_acc_firstprivate_default", F, "firstprivate read", """
  double t = *s + 1;
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    c[i] = a[i] * t;
"""),
    ("c_acc_reduction_missing", R, "missing reduction", """
  double t = 0;
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    t += a[i];
  *s = t;
""", "reduction(+:t)"),
    ("c_acc_reduction_sum", F, "reductions", """
  double t = *s;
#pragma acc parallel loop reduction(+:t)
  for (int i = 0; i < n; i++)
    t += a[i] * b[i];
  *s = t;
"""),
    ("c_acc_reduction_min", F, "reductions", """
  double t = *s;
#pragma acc parallel loop reduction(min:t)
  for (int i = 0; i < n; i++)
    t = b[i] < t ? b[i] : t;
  *s = t;
"""),
    ("c_acc_independent_wrong", R, "wrong independent", """
#pragma acc kernels
  {
#pragma acc loop independent
    for (int i = 1; i < n; i++)
      c[i] = c[i - 1] + a[i];
  }
"""),
    ("c_acc_parallel_carried", R, "wrong independent", """
#pragma acc parallel loop
  for (int i = 0; i < n - 1; i++)
    a[i] = a[i + 1] + b[i];
"""),
    ("c_acc_kernels", F, "OpenACC compute", """
#pragma acc kernels
  for (int i = 0; i < n; i++)
    c[i] = 2 * a[i] + b[i];
"""),
    ("c_acc_kernels_carried", F, "wrong independent", """
#pragma acc kernels loop
  for (int i = 1; i < n; i++)
    c[i] = c[i - 1] + a[i];
"""),
    ("c_acc_loop_seq", F, "collapse over dependent loops", """
#pragma acc parallel loop
  for (int i = 0; i < m; i++) {
#pragma acc loop seq
    for (int j = 1; j < m; j++)
      u[i][j] = u[i][j - 1] + u[i][j];
  }
"""),
    ("c_acc_collapse", F, "collapse over dependent loops", """
#pragma acc parallel loop collapse(2)
  for (int i = 0; i < m; i++)
    for (int j = 0; j < m; j++)
      v[i][j] = u[i][j] * 3;
"""),
    ("c_acc_collapse_carried", R, "collapse over dependent loops", """
#pragma acc parallel loop collapse(2)
  for (int i = 1; i < m; i++)
    for (int j = 0; j < m; j++)
      u[i][j] = u[i - 1][j] + 1;
"""),
    ("c_acc_tile", F, "2-D stencils", """
#pragma acc parallel loop tile(4, 4)
  for (int i = 1; i < m - 1; i++)
    for (int j = 1; j < m - 1; j++)
      v[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
"""),
    ("c_acc_gang_vector", F, "OpenACC compute", """
#pragma acc parallel loop gang vector vector_length(32)
  for (int i = 0; i < n; i++)
    c[i] = a[i] * a[i];
"""),
    ("c_acc_scatter", R, "indirect subscripts", """
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    c[ix[i]] += a[i];
"""),
    ("c_acc_gather", F, "indirect subscripts", """
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    c[i] = a[ix[i]] * b[i];
"""),
    ("c_acc_data_region", F, "OpenACC data", """
#pragma acc data copyin(a[0:n], b[0:n]) copy(c[0:n])
  {
#pragma acc parallel loop
    for (int i = 0; i < n; i++)
      c[i] = a[i] + b[i];
#pragma acc parallel loop
    for (int i = 0; i < n; i++)
      c[i] = c[i] * 2;
  }
"""),
    ("c_acc_stencil_in_place", R, "2-D stencils", """
#pragma acc parallel loop collapse(2)
  for (int i = 1; i < m - 1; i++)
    for (int j = 1; j < m - 1; j++)
      u[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
"""),
    ("c_acc_serial", F, "OpenACC compute", """
#pragma acc serial
  for (int i = 1; i < n; i++)
    c[i] = c[i - 1] + a[i];
"""),
    ("c_acc_gang_vector_nest", F, "wrong independent", """
#pragma acc parallel loop gang
  for (int i = 0; i < m; i++) {
#pragma acc loop vector
    for (int j = 0; j < m; j++)
      v[i][j] = u[i][j] + u[j][i];
  }
"""),
    ("c_acc_inner_vector_carried", R, "wrong independent", """
#pragma acc parallel loop gang
  for (int i = 0; i < m; i++) {
#pragma acc loop vector
    for (int j = 1; j < m; j++)
      u[i][j] = u[i][j - 1] + 1;
  }
"""),
    ("c_omp_inner_simd_carried", R, "wrong independent", """
#pragma omp parallel for
  for (int i = 0; i < m; i++) {
#pragma omp simd
    for (int j = 1; j < m; j++)
      u[i][j] = u[i][j - 1] + 1;
  }
"""),
    ("c_acc_reduction_wrong_operator", R, "missing reduction", """
  double t = *s;
#pragma acc parallel loop reduction(+:t)
  for (int i = 0; i < n; i++)
    t *= 1.0 + 0.5 * (i % 2);
  *s = t;
""", "reduction(*:t)"),
    ("c_acc_private_array", F, "private arrays", """
  double w[2];
#pragma acc parallel loop private(w)
  for (int i = 0; i < n; i++) {
    w[0] = a[i];
    w[1] = b[i] * w[0];
    c[i] = w[1] - w[0];
  }
"""),
    ("c_acc_atomic_update", F, "reductions", """
  int r = *k;
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
#pragma acc atomic update
    r += ix[i];
  }
  *k = r;
"""),
]
