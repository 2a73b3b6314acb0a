! translate-test: translate=--directives=openmp,openacc,translate
! CSR SpMV as Fortran CG codes write it: rowptr(i) .. rowptr(i+1)-1, x(col(k)) gathers,
! power iterations.
module spmv_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  subroutine spmv(n, nnz, rowptr, col, a, x, y)
    integer, intent(in) :: n, nnz
    integer, intent(in) :: rowptr(n + 1), col(nnz)
    real(dp), intent(in) :: a(nnz), x(n)
    real(dp), intent(out) :: y(n)
    integer :: i, k
    real(dp) :: s
    !$omp parallel do private(k, s)
    do i = 1, n
      s = 0.0_dp
      do k = rowptr(i), rowptr(i + 1) - 1
        s = s + a(k) * x(col(k))
      end do
      y(i) = s
    end do
    !$omp end parallel do
  end subroutine spmv
end module spmv_mod

program csr1
  use spmv_mod
  implicit none
  integer, parameter :: n = 2000
  integer, allocatable :: rowptr(:), col(:)
  real(dp), allocatable :: a(:), x(:), y(:)
  integer :: i, k, nnz, len, it
  real(dp) :: s
  allocate(rowptr(n + 1), col(5 * n), a(5 * n), x(n), y(n))
  nnz = 0
  do i = 1, n
    rowptr(i) = nnz + 1
    len = 1 + mod(i * 7, 5)
    do k = 1, len
      nnz = nnz + 1
      col(nnz) = 1 + mod(i * 13 + k * 611, n)
      a(nnz) = 1.0_dp / (k + mod(i, 4))
    end do
    x(i) = 1.0_dp + mod(i, 10) * 0.1_dp
  end do
  rowptr(n + 1) = nnz + 1
  do it = 1, 10
    call spmv(n, nnz, rowptr, col, a, x, y)
    s = sqrt(sum(y * y))
    x = y / s
  end do
  write(*, '(4ES24.16)') s, x(1), x(n / 2), x(n)
end program csr1
