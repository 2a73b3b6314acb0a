! translate-test: translate=--directives=translate rtol=1e-13
! The gathers of csr1/fe1 in '!$translate kernel' regions without mapping pragmas (automatic
! mapping), the FE assembly's update marked '!$translate atomic'.
module auto_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  subroutine spmv(n, rowptr, col, a, x, y)
    integer, intent(in) :: n, rowptr(n + 1), col(:)
    real(dp), intent(in) :: a(:), x(n)
    real(dp), intent(out) :: y(n)
    integer :: i, k
    real(dp) :: s
    !$translate kernel
    do i = 1, n
      s = 0.0_dp
      do k = rowptr(i), rowptr(i + 1) - 1
        s = s + a(k) * x(col(k))
      end do
      y(i) = s
    end do
    !$translate end kernel
  end subroutine spmv

  subroutine assemble(ne, conn, ue, r)
    integer, intent(in) :: ne, conn(:, :)
    real(dp), intent(in) :: ue(:)
    real(dp), intent(inout) :: r(:)
    integer :: e, n
    !$translate kernel
    do e = 1, ne
      do n = 1, 4
        !$translate atomic
        r(conn(n, e)) = r(conn(n, e)) + 0.25_dp * ue(e)
      end do
    end do
    !$translate end kernel
  end subroutine assemble
end module auto_mod

program auto1
  use auto_mod
  implicit none
  integer, parameter :: n = 1000, nx = 20, ny = 16
  integer, allocatable :: rowptr(:), col(:), conn(:, :)
  real(dp), allocatable :: a(:), x(:), y(:), ue(:), r(:)
  integer :: i, j, k, e, nnz
  allocate(rowptr(n + 1), col(3 * n), a(3 * n), x(n), y(n))
  nnz = 0
  do i = 1, n
    rowptr(i) = nnz + 1
    do k = 1, 1 + mod(i, 3)
      nnz = nnz + 1
      col(nnz) = 1 + mod(i * 31 + k * 7, n)
      a(nnz) = 1.0_dp / (k + 1)
    end do
    x(i) = cos(0.01_dp * i)
  end do
  rowptr(n + 1) = nnz + 1
  call spmv(n, rowptr, col, a, x, y)
  allocate(conn(4, nx * ny), ue(nx * ny), r((nx + 1) * (ny + 1)))
  do j = 1, ny
    do i = 1, nx
      e = i + (j - 1) * nx
      conn(1, e) = i + (j - 1) * (nx + 1)
      conn(2, e) = conn(1, e) + 1
      conn(3, e) = conn(2, e) + nx + 1
      conn(4, e) = conn(1, e) + nx + 1
      ue(e) = y(e)
    end do
  end do
  r = 0.0_dp
  call assemble(nx * ny, conn, ue, r)
  write(*, '(4ES24.16)') sum(y), y(n), sum(r), r(nx + 3)
end program auto1
