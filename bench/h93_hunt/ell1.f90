! translate-test: translate=--directives=openmp,openacc,translate
! ELLPACK SpMV with module arrays (a fixed number of entries per row, 0 padding under
! if (c > 0)), and a 0-based CSR rowptr (k = rowptr(i) + 1, rowptr(i + 1)) over module data.
module ell_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0), n = 400, maxnz = 4
  integer :: colidx(maxnz, n), rowptr0(n + 1), col0(maxnz * n)
  real(dp) :: aval(maxnz, n), aval0(maxnz * n), x(n), y(n), z(n)
contains
  subroutine ell_spmv()
    integer :: i, j, c
    real(dp) :: s
    !$omp parallel do private(j, c, s)
    do i = 1, n
      s = 0.0_dp
      do j = 1, maxnz
        c = colidx(j, i)
        if (c > 0) s = s + aval(j, i) * x(c)
      end do
      y(i) = s
    end do
  end subroutine ell_spmv

  subroutine csr0_spmv()
    integer :: i, k
    !$acc parallel loop private(k)
    do i = 1, n
      z(i) = 0.0_dp
      do k = rowptr0(i) + 1, rowptr0(i + 1)
        z(i) = z(i) + aval0(k) * y(col0(k) + 1)
      end do
    end do
  end subroutine csr0_spmv
end module ell_mod

program ell1
  use ell_mod
  implicit none
  integer :: i, j, nnz
  nnz = 0
  do i = 1, n
    rowptr0(i) = nnz
    do j = 1, maxnz
      if (mod(i + j, 3) == 0) then
        colidx(j, i) = 0
        aval(j, i) = 0.0_dp
      else
        colidx(j, i) = 1 + mod(i * 11 + j * 37, n)
        aval(j, i) = 1.0_dp / (i + j)
        nnz = nnz + 1
        col0(nnz) = colidx(j, i) - 1
        aval0(nnz) = 2.0_dp * aval(j, i)
      end if
    end do
    x(i) = sin(0.05_dp * i)
  end do
  rowptr0(n + 1) = nnz
  call ell_spmv()
  call csr0_spmv()
  write(*, '(4ES24.16)') sum(y), y(7), sum(z), z(n)
end program ell1
