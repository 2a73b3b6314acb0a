! translate-test: translate=--directives=openacc rtol=1e-8
! NPB CG conj_grad: the cgit loop inside an OpenACC data region, the sparse matvec through
! rowstr/colidx (inner loop vector reduction), dot products, axpy updates, and the final
! residual norm, as the subroutine of the real code shapes them (arrays as dummies).
! (rtol 1e-8: rnorm is the norm of a residual that cancels to 1e-4; the reduction clauses'
! reassociated sums move its last digits, as any OpenACC compiler's would)
program cg
  implicit none
  integer, parameter :: na = 900, nonzer = 5, nz = na * (nonzer + 1)
  integer :: rowstr(na + 1), colidx(nz)
  real(8) :: a(nz), x(na + 2), z(na + 2), p(na + 2), q(na + 2), r(na + 2), rnorm, zeta
  integer :: j, k, nnz, it
  nnz = 1
  do j = 1, na
    rowstr(j) = nnz
    do k = 0, nonzer
      colidx(nnz) = 1 + mod(j * 13 + k * 97, na)
      if (k == 0) colidx(nnz) = j
      a(nnz) = merge(3.0d0, -1.0d0 / (k + 1), k == 0) + 0.001d0 * mod(j, 5)
      nnz = nnz + 1
    end do
  end do
  rowstr(na + 1) = nnz
  x = 1.0d0
  do it = 1, 3
    call conj_grad(colidx, rowstr, x, z, a, p, q, r, rnorm, na, nz)
    zeta = 0.0d0
    !$acc parallel loop reduction(+:zeta)
    do j = 1, na
      zeta = zeta + x(j) * z(j)
    end do
    !$acc parallel loop
    do j = 1, na
      x(j) = z(j) / sqrt(abs(zeta) + 1.0d0)
    end do
    write (*, '(i3, 2es24.15)') it, rnorm, zeta
  end do
end program cg

subroutine conj_grad(colidx, rowstr, x, z, a, p, q, r, rnorm, na, nz)
  implicit none
  integer, intent(in) :: na, nz, colidx(nz), rowstr(na + 1)
  real(8), intent(in) :: x(na + 2), a(nz)
  real(8), intent(inout) :: z(na + 2), p(na + 2), q(na + 2), r(na + 2)
  real(8), intent(out) :: rnorm
  integer :: j, k, cgit
  real(8) :: rho, rho0, d, alpha, beta, suml, sum
  !$acc data copyin(colidx, rowstr, x, a) copyout(z) create(p, q, r)
  !$acc parallel loop
  do j = 1, na + 1
    q(j) = 0.0d0
    z(j) = 0.0d0
    r(j) = x(j)
    p(j) = r(j)
  end do
  rho = 0.0d0
  !$acc parallel loop reduction(+:rho)
  do j = 1, na
    rho = rho + r(j) * r(j)
  end do
  do cgit = 1, 5
    !$acc parallel loop gang private(suml)
    do j = 1, na
      suml = 0.0d0
      !$acc loop vector reduction(+:suml)
      do k = rowstr(j), rowstr(j + 1) - 1
        suml = suml + a(k) * p(colidx(k))
      end do
      q(j) = suml
    end do
    d = 0.0d0
    !$acc parallel loop reduction(+:d)
    do j = 1, na
      d = d + p(j) * q(j)
    end do
    alpha = rho / d
    rho0 = rho
    rho = 0.0d0
    !$acc parallel loop reduction(+:rho)
    do j = 1, na
      z(j) = z(j) + alpha * p(j)
      r(j) = r(j) - alpha * q(j)
      rho = rho + r(j) * r(j)
    end do
    beta = rho / rho0
    !$acc parallel loop
    do j = 1, na
      p(j) = r(j) + beta * p(j)
    end do
  end do
  sum = 0.0d0
  !$acc parallel loop gang private(d) reduction(+:sum)
  do j = 1, na
    d = 0.0d0
    do k = rowstr(j), rowstr(j + 1) - 1
      d = d + a(k) * z(colidx(k))
    end do
    sum = sum + (x(j) - d)**2
  end do
  !$acc end data
  rnorm = sqrt(sum)
end subroutine conj_grad
