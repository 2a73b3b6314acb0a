! translate-test: translate=--directives=openmp rtol=1e-3
! NPB CG's conj_grad as the OpenMP reference writes it: one parallel region around the whole
! cgit loop, worksharing loops (!$omp do) with reductions inside it, scalar updates under
! !$omp single / master, rho shared, and the final norm loop with an inner private sum.
! (rtol 1e-3: the residual norm cancels to 1e-11 from terms of 1, and reduction clauses consent
! to reassociation; since h92 the loops are offloaded and the norm differs at 2e-4.)
program cg_omp
  implicit none
  integer, parameter :: na = 600, nonzer = 6, nz = na * (nonzer + 1)
  integer :: rowstr(na + 1), colidx(nz), j, k, nnz
  real(8) :: a(nz), x(na), z(na), p(na), q(na), r(na), rnorm
  nnz = 1
  do j = 1, na
    rowstr(j) = nnz
    do k = 0, nonzer
      colidx(nnz) = merge(j, 1 + mod(j * 31 + k * 57, na), k == 0)
      a(nnz) = merge(4.0d0, -0.5d0 / (k + 1), k == 0) + 0.003d0 * mod(j, 4)
      nnz = nnz + 1
    end do
  end do
  rowstr(na + 1) = nnz
  x = 1.0d0
  call conj_grad(colidx, rowstr, x, z, a, p, q, r, rnorm)
  write (*, '(3es24.15)') rnorm, z(1), z(na)
contains
  subroutine conj_grad(colidx, rowstr, x, z, a, p, q, r, rnorm)
    integer, intent(in) :: colidx(:), rowstr(:)
    real(8), intent(in) :: x(:), a(:)
    real(8), intent(inout) :: z(:), p(:), q(:), r(:)
    real(8), intent(out) :: rnorm
    integer :: j, k, cgit
    real(8) :: d, sum, rho, rho0, alpha, beta, suml
    rho = 0.0d0
    sum = 0.0d0
    !$omp parallel default(shared) private(j, k, cgit, suml, alpha, beta) shared(d, rho0, rho, sum)
    !$omp do
    do j = 1, na
      q(j) = 0.0d0
      z(j) = 0.0d0
      r(j) = x(j)
      p(j) = r(j)
    end do
    !$omp end do
    !$omp do reduction(+:rho)
    do j = 1, na
      rho = rho + r(j) * r(j)
    end do
    !$omp end do
    do cgit = 1, 8
      !$omp single
      rho0 = rho
      d = 0.0d0
      rho = 0.0d0
      !$omp end single
      !$omp do
      do j = 1, na
        suml = 0.0d0
        do k = rowstr(j), rowstr(j + 1) - 1
          suml = suml + a(k) * p(colidx(k))
        end do
        q(j) = suml
      end do
      !$omp end do
      !$omp do reduction(+:d)
      do j = 1, na
        d = d + p(j) * q(j)
      end do
      !$omp end do
      alpha = rho0 / d
      !$omp do reduction(+:rho)
      do j = 1, na
        z(j) = z(j) + alpha * p(j)
        r(j) = r(j) - alpha * q(j)
        rho = rho + r(j) * r(j)
      end do
      !$omp end do
      beta = rho / rho0
      !$omp do
      do j = 1, na
        p(j) = r(j) + beta * p(j)
      end do
      !$omp end do
    end do
    !$omp do reduction(+:sum)
    do j = 1, na
      suml = 0.0d0
      do k = rowstr(j), rowstr(j + 1) - 1
        suml = suml + a(k) * z(colidx(k))
      end do
      sum = sum + (x(j) - suml)**2
    end do
    !$omp end do
    !$omp end parallel
    rnorm = sqrt(sum)
  end subroutine conj_grad
end program cg_omp
