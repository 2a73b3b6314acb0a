! translate-test: translate=-Werror=sequential-region
! A small application ported by adding pragmas only: a module of kinds chosen by the
! preprocessor, derived-type state kept on the device by a data region (components in its
! clauses), a scalar set on both paths of an IF/ELSE, a macro inside a region, and a CSR
! sparse product whose inner bounds come from an array.  Every region runs in parallel
! (-Werror=sequential-region) and prints exactly what the original prints.
module kinds
  use iso_fortran_env, only: real64, real32
  implicit none
#ifdef SP
  integer, parameter :: wp = real32
#else
  integer, parameter :: wp = real64
#endif
end module kinds

#define HALF 0.5_wp
module state_mod
  use kinds
  implicit none
  type field_t
    real(wp), allocatable :: u(:), v(:)
    real(wp) :: dt
  end type field_t
end module state_mod

subroutine relax(n, st)
  use kinds
  use state_mod
  implicit none
  integer, intent(in) :: n
  type(field_t), intent(inout) :: st
  real(wp) :: t
  integer :: i
  !$translate kernel relax_k
  do i = 1, n
     if (st%u(i) > 0) then
        t = st%u(i)
     else
        t = -st%u(i)
     end if
     st%v(i) = HALF*t + st%dt
  end do
  !$translate end kernel
end subroutine

subroutine spmv(n, nnz, rowptr, col, val, x, y)
  use kinds
  implicit none
  integer, intent(in) :: n, nnz, rowptr(n+1), col(nnz)
  real(wp), intent(in) :: val(nnz), x(n)
  real(wp), intent(out) :: y(n)
  real(wp) :: s
  integer :: i, j
  !$translate kernel spmv_k
  do i = 1, n
     s = 0
     do j = rowptr(i), rowptr(i+1) - 1
        s = s + val(j)*x(col(j))
     end do
     y(i) = s
  end do
  !$translate end kernel
end subroutine

program app
  use kinds
  use state_mod
  implicit none
  integer, parameter :: n = 1000
  type(field_t) :: st
  integer :: rowptr(n+1), col(3*n), i, k, step, nnz
  real(wp) :: val(3*n), x(n), y(n)
  allocate(st%u(n), st%v(n))
  st%dt = 0.25_wp
  do i = 1, n
     st%u(i) = sin(real(i, wp))
  end do
  nnz = 0
  rowptr(1) = 1
  do i = 1, n
     do k = max(1, i-1), min(n, i+1)
        nnz = nnz + 1
        col(nnz) = k
        val(nnz) = 1.0_wp / (i + k)
     end do
     rowptr(i+1) = nnz + 1
  end do
  !$translate data copyin(st%u) copy(st%v)
  do step = 1, 5
     call relax(n, st)
  end do
  !$translate update host(st%v)
  !$translate end data
  x = st%v
  call spmv(n, nnz, rowptr, col, val, x, y)
  print '(3es24.15)', sum(st%v), sum(y), y(n/2)
end program
