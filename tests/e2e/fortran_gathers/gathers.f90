! translate-test: translate=--directives=openmp,openacc,translate rtol=1e-13
! Fortran gathers through index tables: CSR SpMV with an over-allocated col(:) (garbage past
! nnz), finite-element gathers conn(n, e) with an atomic assembly, a permutation into an
! array with lower bound 0, a neighbour table under if (j > 0).
module gathers_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  subroutine spmv(n, rowptr, col, a, x, y)
    integer, intent(in) :: n, rowptr(:), col(:)
    real(dp), intent(in) :: a(:), x(:)
    real(dp), intent(out) :: y(:)
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
  end subroutine spmv

  subroutine assemble(ne, conn, u, r)
    integer, intent(in) :: ne, conn(:, :)
    real(dp), intent(in) :: u(:)
    real(dp), intent(inout) :: r(:)
    integer :: e, n
    real(dp) :: avg
    !$acc parallel loop private(avg)
    do e = 1, ne
      avg = 0.25_dp * (u(conn(1, e)) + u(conn(2, e)) + u(conn(3, e)) + u(conn(4, e)))
      do n = 1, 4
        !$acc atomic update
        r(conn(n, e)) = r(conn(n, e)) + avg
      end do
    end do
  end subroutine assemble

  subroutine permute(n, perm, x, y)
    integer, intent(in) :: n, perm(n)
    real(dp), intent(in) :: x(0:n - 1)
    real(dp), intent(out) :: y(n)
    integer :: i
    !$translate kernel
    do i = 1, n
      y(i) = x(perm(i))
    end do
    !$translate end kernel
  end subroutine permute

  subroutine neighbours(n, nb, x, y)
    integer, intent(in) :: n, nb(2, n)
    real(dp), intent(in) :: x(n)
    real(dp), intent(out) :: y(n)
    integer :: i, j, l
    !$omp parallel do private(j, l)
    do i = 1, n
      y(i) = x(i)
      do l = 1, 2
        j = nb(l, i)
        if (j > 0) y(i) = y(i) + 0.5_dp * x(j)
      end do
    end do
  end subroutine neighbours
end module gathers_mod

program gathers
  use gathers_mod
  implicit none
  integer, parameter :: n = 300, nx = 12, ny = 10
  integer, allocatable :: rowptr(:), col(:), conn(:, :), perm(:), nb(:, :)
  real(dp), allocatable :: a(:), x(:), y(:), u(:), r(:), z(:)
  integer :: i, j, k, e, nnz, len, nn
  allocate(rowptr(n + 1), col(6 * n), a(6 * n), x(n), y(n), perm(n), nb(2, n), z(n))
  col = -7    ! past nnz the table holds garbage the region never reads
  nnz = 0
  do i = 1, n
    rowptr(i) = nnz + 1
    len = 1 + mod(i * 7, 5)
    do k = 1, len
      nnz = nnz + 1
      col(nnz) = 1 + mod(i * 13 + k * 61, n)
      a(nnz) = 1.0_dp / (k + mod(i, 4))
    end do
    x(i) = 1.0_dp + mod(i, 10) * 0.1_dp
    perm(i) = mod(i * 7, n)
    nb(1, i) = i - 1
    nb(2, i) = merge(i + 1, 0, i < n)
  end do
  rowptr(n + 1) = nnz + 1
  call spmv(n, rowptr, col, a, x, y)
  call permute(n, perm, y, z)
  call neighbours(n, nb, z, y)
  write(*, '(3ES24.16)') sum(y), y(1), y(n)
  nn = (nx + 1) * (ny + 1)
  allocate(conn(4, nx * ny), u(nn), r(nn))
  do j = 1, ny
    do i = 1, nx
      e = i + (j - 1) * nx
      conn(1, e) = i + (j - 1) * (nx + 1)
      conn(2, e) = conn(1, e) + 1
      conn(3, e) = conn(2, e) + nx + 1
      conn(4, e) = conn(1, e) + nx + 1
    end do
  end do
  do i = 1, nn
    u(i) = sin(0.1_dp * i)
  end do
  r = 0.0_dp
  call assemble(nx * ny, conn, u, r)
  write(*, '(3ES24.16)') sum(r), r(1), r(nn / 2)
end program gathers
