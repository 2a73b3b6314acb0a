"""Fortran cases of the labelled directive set (see tests/directives/cases.py for the format):
(name, label, family, body[, hint[, invalid_directive]])."""

from __future__ import annotations

R, F = "racy", "race_free"

FORTRAN_CASES: list[tuple] = [
    # ---------------------------------------------------------------- OpenMP: data sharing
    ("f_omp_private_missing", R, "missing private", """
  integer :: i
  real(8) :: t
  !$omp parallel do
  do i = 1, n
     t = a(i) * 2
     c(i) = t + b(i)
  end do
  !$omp end parallel do
""", "private(t)"),
    ("f_omp_private", F, "missing private", """
  integer :: i
  real(8) :: t
  !$omp parallel do private(t)
  do i = 1, n
     t = a(i) * 2
     c(i) = t + b(i)
  end do
  !$omp end parallel do
"""),
    ("f_omp_private_array_missing", R, "private arrays", """
  integer :: i
  real(8) :: w(3)
  !$omp parallel do
  do i = 1, n
     w(1) = a(i)
     w(2) = b(i)
     w(3) = w(1) * w(2)
     c(i) = w(3) + w(1)
  end do
""", "private(w)"),
    ("f_omp_private_array", F, "private arrays", """
  integer :: i
  real(8) :: w(3)
  !$omp parallel do private(w)
  do i = 1, n
     w(1) = a(i)
     w(2) = b(i)
     w(3) = w(1) * w(2)
     c(i) = w(3) + w(1)
  end do
"""),
    ("f_omp_private_read", R, "firstprivate read", """
  integer :: i
  real(8) :: t
  t = s
  !$omp parallel do private(t)
  do i = 1, n
     c(i) = a(i) * t
  end do
""", "firstprivate(t)"),
    ("f_omp_firstprivate", F, "firstprivate read", """
  integer :: i
  real(8) :: t
  t = s * 2
  !$omp parallel do firstprivate(t)
  do i = 1, n
     c(i) = a(i) * t + b(i)
  end do
"""),
    ("f_omp_shared_read", F, "firstprivate read", """
  integer :: i
  !$omp parallel do shared(a, b, c, s)
  do i = 1, n
     c(i) = a(i) * s - b(i)
  end do
"""),
    ("f_omp_cond_shared_write", R, "missing private", """
  integer :: i
  !$omp parallel do
  do i = 1, n
     if (a(i) > 1.5d0) s = a(i)
     c(i) = b(i) + 1
  end do
"""),
    ("f_omp_default_none", F, "default(none)", """
  integer :: i
  real(8) :: t
  !$omp parallel do default(none) shared(n, a, b, c) private(t)
  do i = 1, n
     t = a(i) + b(i)
     c(i) = t * t
  end do
"""),
    ("f_omp_default_none_unlisted", R, "default(none)", """
  integer :: i
  !$omp parallel do default(none) shared(n, a, c)
  do i = 1, n
     c(i) = a(i) + b(i)
  end do
""", "b", True),
    ("f_omp_inner_index", F, "missing private", """
  integer :: i, j
  !$omp parallel do
  do i = 1, m
     do j = 1, m
        v(i, j) = u(i, j) + u(j, i)
     end do
  end do
"""),
    # ---------------------------------------------------------------- OpenMP: reductions
    ("f_omp_reduction_missing", R, "missing reduction", """
  integer :: i
  !$omp parallel do
  do i = 1, n
     s = s + a(i)
  end do
""", "reduction(+:s)"),
    ("f_omp_reduction_sum", F, "reductions", """
  integer :: i
  !$omp parallel do reduction(+:s)
  do i = 1, n
     s = s + a(i) * b(i)
  end do
"""),
    ("f_omp_reduction_prod", F, "reductions", """
  integer :: i
  real(8) :: p
  p = 1
  !$omp parallel do reduction(*:p)
  do i = 1, n
     p = p * (1.0d0 + 0.5d0 * mod(i, 2))
  end do
  s = p
"""),
    ("f_omp_reduction_max", F, "reductions", """
  integer :: i
  !$omp parallel do reduction(max:s)
  do i = 1, n
     s = max(s, a(i) * b(i))
  end do
"""),
    ("f_omp_reduction_min", F, "reductions", """
  integer :: i
  !$omp parallel do reduction(min:s)
  do i = 1, n
     s = min(s, b(i))
  end do
"""),
    ("f_omp_reduction_iand", F, "reductions", """
  integer :: i
  k = -1
  !$omp parallel do reduction(iand:k)
  do i = 1, n
     k = iand(k, ix(i) + 64)
  end do
"""),
    ("f_omp_reduction_ior", F, "reductions", """
  integer :: i
  !$omp parallel do reduction(ior:k)
  do i = 1, n
     k = ior(k, ix(i))
  end do
"""),
    ("f_omp_reduction_ieor", F, "reductions", """
  integer :: i
  !$omp parallel do reduction(ieor:k)
  do i = 1, n
     k = ieor(k, ix(i) * 3)
  end do
"""),
    ("f_omp_reduction_and", F, "reductions", """
  integer :: i
  logical :: ok
  ok = .true.
  !$omp parallel do reduction(.and.:ok)
  do i = 1, n
     ok = ok .and. a(i) > 0
  end do
  k = merge(1, 0, ok)
"""),
    ("f_omp_reduction_or", F, "reductions", """
  integer :: i
  logical :: any_neg
  any_neg = .false.
  !$omp parallel do reduction(.or.:any_neg)
  do i = 1, n
     any_neg = any_neg .or. b(i) < 0
  end do
  k = merge(1, 0, any_neg)
"""),
    ("f_omp_reduction_wrong_operator", R, "missing reduction", """
  integer :: i
  !$omp parallel do reduction(+:s)
  do i = 1, n
     s = s * (1.0d0 + 0.5d0 * mod(i, 2))
  end do
""", "reduction(*:s)"),
    ("f_omp_reduction_element", R, "missing reduction", """
  integer :: i
  !$omp parallel do
  do i = 1, n
     c(1) = c(1) + a(i)
  end do
"""),
    ("f_omp_row_sums", F, "reductions", """
  integer :: i, j
  !$omp parallel do
  do i = 1, m
     v(i, 1) = 0
     do j = 1, m
        v(i, 1) = v(i, 1) + u(i, j)
     end do
  end do
"""),
    # ---------------------------------------------------------------- OpenMP: subscripts
    ("f_omp_neighbour_in_place", R, "out-of-bounds neighbours", """
  integer :: i
  !$omp parallel do
  do i = 1, n - 1
     a(i) = 0.5d0 * (a(i) + a(i + 1))
  end do
"""),
    ("f_omp_neighbour_out_of_bounds", R, "out-of-bounds neighbours", """
  integer :: i
  !$omp parallel do
  do i = 1, n
     c(i) = a(i - 1) + a(i + 1)
  end do
"""),
    ("f_omp_neighbour", F, "out-of-bounds neighbours", """
  integer :: i
  !$omp parallel do
  do i = 2, n - 1
     c(i) = a(i - 1) + a(i + 1) - 2 * a(i)
  end do
"""),
    ("f_omp_prefix_sum", R, "collapse over dependent loops", """
  integer :: i
  !$omp parallel do
  do i = 2, n
     c(i) = c(i - 1) + a(i)
  end do
"""),
    ("f_omp_scatter", R, "indirect subscripts", """
  integer :: i
  !$omp parallel do
  do i = 1, n
     c(ix(i)) = c(ix(i)) + a(i)
  end do
"""),
    ("f_omp_gather", F, "indirect subscripts", """
  integer :: i
  !$omp parallel do
  do i = 1, n
     c(i) = a(ix(i)) + b(i)
  end do
"""),
    # ---------------------------------------------------------------- OpenMP: lastprivate
    ("f_omp_lastprivate", F, "lastprivate", """
  integer :: i
  real(8) :: t
  !$omp parallel do lastprivate(t)
  do i = 1, n
     t = a(i) + 1
     c(i) = t * b(i)
  end do
  s = t
"""),
    ("f_omp_lastprivate_conditional", R, "lastprivate", """
  integer :: i
  real(8) :: t
  t = 0
  !$omp parallel do lastprivate(t)
  do i = 1, n
     if (b(i) > 0) t = a(i)
     c(i) = b(i) * 2
  end do
  s = t
"""),
    ("f_omp_lastprivate_collapse", F, "lastprivate", """
  integer :: i, j
  real(8) :: t
  integer :: at
  !$omp parallel do collapse(2) lastprivate(t, at)
  do j = 2, m
     do i = 1, m - 1
        t = u(i, j) * 2 + i
        at = 100 * j + i
        v(i, j) = t
     end do
  end do
  s = t
  k = at
"""),
    ("f_omp_lastprivate_step", F, "lastprivate", """
  integer :: i
  real(8) :: t
  !$omp parallel do lastprivate(t)
  do i = 2, n, 3
     t = a(i) - b(i)
     c(i) = t * 2
  end do
  s = t
"""),
    ("f_omp_lastprivate_downward", F, "lastprivate", """
  integer :: i
  real(8) :: t
  !$omp parallel do lastprivate(t)
  do i = n, 1, -2
     t = a(i) * 2 + b(i)
     c(i) = t
  end do
  s = t
"""),
    ("f_omp_lastprivate_read_first", R, "lastprivate", """
  integer :: i
  real(8) :: t
  t = 1
  !$omp parallel do lastprivate(t)
  do i = 1, n
     c(i) = t
     t = a(i) + 1
  end do
  s = t
"""),
    # ---------------------------------------------------------------- OpenMP: nowait
    ("f_omp_nowait_dependent", R, "nowait", """
  integer :: i
  !$omp parallel
  !$omp do
  do i = 1, n
     c(i) = a(i) * 2
  end do
  !$omp end do nowait
  !$omp do
  do i = 1, n - 1
     b(i) = c(i + 1) + 1
  end do
  !$omp end do
  !$omp end parallel
"""),
    ("f_omp_nowait_independent", F, "nowait", """
  integer :: i
  !$omp parallel
  !$omp do
  do i = 1, n
     c(i) = a(i) * 2
  end do
  !$omp end do nowait
  !$omp do
  do i = 1, n
     b(i) = a(i) + 1
  end do
  !$omp end do
  !$omp end parallel
"""),
    ("f_omp_barrier_between", F, "nowait", """
  integer :: i
  !$omp parallel
  !$omp do
  do i = 1, n
     c(i) = a(i) * 2
  end do
  !$omp end do
  !$omp do
  do i = 1, n - 1
     b(i) = c(i + 1) + 1
  end do
  !$omp end do
  !$omp end parallel
"""),
    # ---------------------------------------------------------------- OpenMP: collapse
    ("f_omp_collapse", F, "collapse over dependent loops", """
  integer :: i, j
  !$omp parallel do collapse(2)
  do j = 1, m
     do i = 1, m
        v(i, j) = 2 * u(i, j) + j
     end do
  end do
"""),
    ("f_omp_collapse_triangular", F, "collapse over dependent loops", """
  integer :: i, j
  !$omp parallel do collapse(2)
  do j = 1, m
     do i = j, m
        v(i, j) = u(i, j) + u(j, i)
     end do
  end do
""", "", True),
    ("f_omp_collapse_carried", R, "collapse over dependent loops", """
  integer :: i, j
  !$omp parallel do collapse(2)
  do j = 2, m
     do i = 1, m
        u(i, j) = u(i, j - 1) + 1
     end do
  end do
"""),
    ("f_omp_outer_carried", R, "collapse over dependent loops", """
  integer :: i, j
  !$omp parallel do
  do j = 2, m
     do i = 1, m
        u(i, j) = u(i, j - 1) * 0.5d0 + u(i, j)
     end do
  end do
"""),
    # ---------------------------------------------------------------- OpenMP: stencils
    ("f_omp_stencil_out_of_place", F, "2-D stencils", """
  integer :: i, j
  !$omp parallel do collapse(2)
  do j = 2, m - 1
     do i = 2, m - 1
        v(i, j) = 0.25d0 * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1))
     end do
  end do
"""),
    ("f_omp_stencil_in_place", R, "2-D stencils", """
  integer :: i, j
  !$omp parallel do
  do j = 2, m - 1
     do i = 2, m - 1
        u(i, j) = 0.25d0 * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1))
     end do
  end do
"""),
    # ---------------------------------------------------------------- OpenMP: other forms
    ("f_omp_simd", F, "other loop directives", """
  integer :: i
  !$omp simd
  do i = 1, n
     c(i) = a(i) * b(i)
  end do
"""),
    ("f_omp_target", F, "other loop directives", """
  integer :: i
  !$omp target teams distribute parallel do map(to: a, b) map(from: c)
  do i = 1, n
     c(i) = a(i) - b(i)
  end do
"""),
    ("f_omp_schedule", F, "other loop directives", """
  integer :: i
  !$omp parallel do schedule(static, 4) num_threads(2)
  do i = 1, n
     c(i) = a(i) + 3 * b(i)
  end do
"""),
    ("f_omp_do_in_parallel", F, "other loop directives", """
  integer :: i
  real(8) :: t
  !$omp parallel private(t)
  !$omp do
  do i = 1, n
     t = b(i) * b(i)
     c(i) = a(i) + t
  end do
  !$omp end do
  !$omp end parallel
"""),
    # ---------------------------------------------------------------- OpenACC
    ("f_acc_parallel_loop", F, "OpenACC compute", """
  integer :: i
  !$acc parallel loop copyin(a, b) copyout(c)
  do i = 1, n
     c(i) = a(i) + b(i)
  end do
"""),
    ("f_acc_private_missing", R, "missing private", """
  integer :: i
  real(8) :: t
  !$acc parallel loop
  do i = 1, n
     t = a(i) * 2
     c(i) = t + b(i)
  end do
""", "private(t)"),
    ("f_acc_private", F, "missing private", """
  integer :: i
  real(8) :: t
  !$acc parallel loop private(t)
  do i = 1, n
     t = a(i) * 2
     c(i) = t + b(i)
  end do
"""),
    ("f_acc_firstprivate_default", F, "firstprivate read", """
  integer :: i
  real(8) :: t
  t = s + 1
  !$acc parallel loop
  do i = 1, n
     c(i) = a(i) * t
  end do
"""),
    ("f_acc_reduction_missing", R, "missing reduction", """
  integer :: i
  !$acc parallel loop
  do i = 1, n
     s = s + a(i)
  end do
""", "reduction(+:s)"),
    ("f_acc_reduction_sum", F, "reductions", """
  integer :: i
  !$acc parallel loop reduction(+:s)
  do i = 1, n
     s = s + a(i) * b(i)
  end do
"""),
    ("f_acc_reduction_max", F, "reductions", """
  integer :: i
  !$acc parallel loop reduction(max:s)
  do i = 1, n
     s = max(s, b(i))
  end do
"""),
    ("f_acc_independent_wrong", R, "wrong independent", """
  integer :: i
  !$acc kernels
  !$acc loop independent
  do i = 2, n
     c(i) = c(i - 1) + a(i)
  end do
  !$acc end kernels
"""),
    ("f_acc_parallel_carried", R, "wrong independent", """
  integer :: i
  !$acc parallel loop
  do i = 1, n - 1
     a(i) = a(i + 1) + b(i)
  end do
"""),
    ("f_acc_kernels", F, "OpenACC compute", """
  integer :: i
  !$acc kernels
  do i = 1, n
     c(i) = 2 * a(i) + b(i)
  end do
  !$acc end kernels
"""),
    ("f_acc_kernels_carried", F, "wrong independent", """
  integer :: i
  !$acc kernels loop
  do i = 2, n
     c(i) = c(i - 1) + a(i)
  end do
"""),
    ("f_acc_loop_seq", F, "collapse over dependent loops", """
  integer :: i, j
  !$acc parallel loop
  do i = 1, m
     !$acc loop seq
     do j = 2, m
        u(i, j) = u(i, j - 1) + u(i, j)
     end do
  end do
"""),
    ("f_acc_collapse", F, "collapse over dependent loops", """
  integer :: i, j
  !$acc parallel loop collapse(2)
  do j = 1, m
     do i = 1, m
        v(i, j) = u(i, j) * 3
     end do
  end do
"""),
    ("f_acc_collapse_carried", R, "collapse over dependent loops", """
  integer :: i, j
  !$acc parallel loop collapse(2)
  do j = 2, m
     do i = 1, m
        u(i, j) = u(i, j - 1) + 1
     end do
  end do
"""),
    ("f_acc_tile", F, "2-D stencils", """
  integer :: i, j
  !$acc parallel loop tile(4, 4)
  do j = 2, m - 1
     do i = 2, m - 1
        v(i, j) = 0.25d0 * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1))
     end do
  end do
"""),
    ("f_acc_gang_vector", F, "OpenACC compute", """
  integer :: i
  !$acc parallel loop gang vector vector_length(32)
  do i = 1, n
     c(i) = a(i) * a(i)
  end do
"""),
    ("f_acc_scatter", R, "indirect subscripts", """
  integer :: i
  !$acc parallel loop
  do i = 1, n
     c(ix(i)) = c(ix(i)) + a(i)
  end do
"""),
    ("f_acc_gather", F, "indirect subscripts", """
  integer :: i
  !$acc parallel loop
  do i = 1, n
     c(i) = a(ix(i)) * b(i)
  end do
"""),
    ("f_acc_data_region", F, "OpenACC data", """
  integer :: i
  !$acc data copyin(a, b) copy(c)
  !$acc parallel loop
  do i = 1, n
     c(i) = a(i) + b(i)
  end do
  !$acc parallel loop
  do i = 1, n
     c(i) = c(i) * 2
  end do
  !$acc end data
"""),
    ("f_acc_stencil_in_place", R, "2-D stencils", """
  integer :: i, j
  !$acc parallel loop collapse(2)
  do j = 2, m - 1
     do i = 2, m - 1
        u(i, j) = 0.25d0 * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1))
     end do
  end do
"""),
    ("f_acc_serial", F, "OpenACC compute", """
  integer :: i
  !$acc serial
  do i = 2, n
     c(i) = c(i - 1) + a(i)
  end do
  !$acc end serial
"""),
    ("f_acc_gang_vector_nest", F, "wrong independent", """
  integer :: i, j
  !$acc parallel loop gang
  do j = 1, m
     !$acc loop vector
     do i = 1, m
        v(i, j) = u(i, j) + u(j, i)
     end do
  end do
"""),
    ("f_acc_inner_vector_carried", R, "wrong independent", """
  integer :: i, j
  !$acc parallel loop gang
  do j = 1, m
     !$acc loop vector
     do i = 2, m
        u(i, j) = u(i - 1, j) + 1
     end do
  end do
"""),
    ("f_omp_inner_simd_carried", R, "wrong independent", """
  integer :: i, j
  !$omp parallel do
  do j = 1, m
     !$omp simd
     do i = 2, m
        u(i, j) = u(i - 1, j) + 1
     end do
  end do
"""),
    ("f_acc_reduction_wrong_operator", R, "missing reduction", """
  integer :: i
  !$acc parallel loop reduction(+:s)
  do i = 1, n
     s = s * (1.0d0 + 0.5d0 * mod(i, 2))
  end do
""", "reduction(*:s)"),
    ("f_acc_private_array", F, "private arrays", """
  integer :: i
  real(8) :: w(2)
  !$acc parallel loop private(w)
  do i = 1, n
     w(1) = a(i)
     w(2) = b(i) * w(1)
     c(i) = w(2) - w(1)
  end do
"""),
    ("f_acc_atomic_update", F, "reductions", """
  integer :: i
  !$acc parallel loop
  do i = 1, n
     !$acc atomic update
     k = k + ix(i)
  end do
"""),
]
