! translate-test: translate=--directives=openmp rtol=1e-9
! NPB CG as the OpenMP reference writes it (our own code after its shape): conj_grad holds one
! parallel region around the cgit loop; worksharing loops with reductions,
! scalar updates under single and master (+ barrier), a private scalar every thread computes
! (alpha, beta), and an orphaned !$omp do in a subroutine the region calls (the matvec).
! The main loop normalises x in a second parallel region (its last loop nowait).
! (rtol: reductions reassociate.)
program cg_npb
  implicit none
  integer, parameter :: na = 400, nonzer = 5, nz = na * (nonzer + 1)
  integer :: rowstr(na + 1), colidx(nz), j, k, nnz, it
  real(8) :: a(nz), x(na), z(na), p(na), q(na), r(na), rnorm, zeta, t1, t2
  nnz = 1
  do j = 1, na
    rowstr(j) = nnz
    do k = 0, nonzer
      colidx(nnz) = merge(j, 1 + mod(j * 17 + k * 41, na), k == 0)
      a(nnz) = merge(2.5d0, 0.3d0 / (k + 2), k == 0) + 0.01d0 * mod(j, 5)
      nnz = nnz + 1
    end do
  end do
  rowstr(na + 1) = nnz
  x = 1.0d0
  do it = 1, 3
    call conj_grad(colidx, rowstr, x, z, a, p, q, r, rnorm)
    !$omp parallel private(j)
    !$omp single
    t1 = 0.0d0
    t2 = 0.0d0
    !$omp end single
    !$omp do reduction(+:t1, t2)
    do j = 1, na
      t1 = t1 + x(j) * z(j)
      t2 = t2 + z(j) * z(j)
    end do
    !$omp end do
    !$omp single
    t2 = 1.0d0 / sqrt(t2)
    zeta = 10.0d0 + 1.0d0 / t1
    !$omp end single
    !$omp do
    do j = 1, na
      x(j) = t2 * z(j)
    end do
    !$omp end do nowait
    !$omp end parallel
    write (*, '(i3, 2es24.15)') it, rnorm, zeta
  end do
  write (*, '(3es24.15)') x(1), x(na / 2), x(na)
contains
  subroutine matvec(colidx, rowstr, a, v, w)
    integer, intent(in) :: colidx(:), rowstr(:)
    real(8), intent(in) :: a(:), v(:)
    real(8), intent(inout) :: w(:)
    integer :: j, k
    real(8) :: s
    !$omp do private(s)
    do j = 1, na
      s = 0.0d0
      do k = rowstr(j), rowstr(j + 1) - 1
        s = s + a(k) * v(colidx(k))
      end do
      w(j) = s
    end do
    !$omp end do
  end subroutine matvec

  subroutine conj_grad(colidx, rowstr, x, z, a, p, q, r, rnorm)
    integer, intent(in) :: colidx(:), rowstr(:)
    real(8), intent(in) :: x(:), a(:)
    real(8), intent(inout) :: z(:), p(:), q(:), r(:)
    real(8), intent(out) :: rnorm
    integer :: j, k, cgit
    real(8) :: d, sum, rho, rho0, alpha, beta, suml
    rho = 0.0d0
    sum = 0.0d0
    !$omp parallel default(shared) private(j, k, cgit, suml, alpha, beta) &
    !$omp& shared(d, rho0, rho, sum)
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
    do cgit = 1, 3
      !$omp master
      rho0 = rho
      d = 0.0d0
      rho = 0.0d0
      !$omp end master
      !$omp barrier
      call matvec(colidx, rowstr, a, p, q)
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
    !$omp barrier
    call matvec(colidx, rowstr, a, z, r)
    !$omp do reduction(+:sum) private(suml)
    do j = 1, na
      suml = x(j) - r(j)
      sum = sum + suml * suml
    end do
    !$omp end do
    !$omp end parallel
    rnorm = sqrt(sum)
  end subroutine conj_grad
end program cg_npb
