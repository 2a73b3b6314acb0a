! translate-test: translate=--directives=openmp,translate rtol=1e-12
! HPCG-like in Fortran on a 1-based 3-D 7-point operator: symmetric Gauss-Seidel as a
! translate region (forward then backward sweep in one region: sequential dependence through
! x, must stay in order), and a Jacobi with a convergence check: a do while loop around two
! OpenMP loops, the first with reduction(max:err) written as err = max(err, abs(...)).
program hpcg
  implicit none
  integer, parameter :: nx = 8, n = nx * nx * nx
  integer :: nbr(7, n), nnb(n), i, k, ix, iy, iz, iters, sweep
  real(8) :: av(7, n), d(n), x(n), b(n), xn(n), err, s, rn
  do iz = 1, nx
    do iy = 1, nx
      do ix = 1, nx
        i = ix + nx * (iy - 1) + nx * nx * (iz - 1)
        nnb(i) = 0
        call add(i, i, 6.5d0)
        if (ix > 1) call add(i, i - 1, -1.0d0)
        if (ix < nx) call add(i, i + 1, -1.0d0)
        if (iy > 1) call add(i, i - nx, -1.0d0)
        if (iy < nx) call add(i, i + nx, -1.0d0)
        if (iz > 1) call add(i, i - nx * nx, -1.0d0)
        if (iz < nx) call add(i, i + nx * nx, -1.0d0)
        d(i) = 6.5d0
        b(i) = 1.0d0 + 0.05d0 * mod(ix + 2 * iy + 3 * iz, 9)
      end do
    end do
  end do
  x = 0.0d0
  do sweep = 1, 2
    !$translate kernel symgs
    do i = 1, n
      s = b(i)
      do k = 1, nnb(i)
        s = s - av(k, i) * x(nbr(k, i))
      end do
      x(i) = (s + x(i) * d(i)) / d(i)
    end do
    do i = n, 1, -1
      s = b(i)
      do k = 1, nnb(i)
        s = s - av(k, i) * x(nbr(k, i))
      end do
      x(i) = (s + x(i) * d(i)) / d(i)
    end do
    !$translate end kernel
  end do
  rn = 0.0d0
  !$omp parallel do private(s, k) reduction(+:rn)
  do i = 1, n
    s = 0.0d0
    do k = 1, nnb(i)
      s = s + av(k, i) * x(nbr(k, i))
    end do
    rn = rn + (b(i) - s)**2
  end do
  write (*, '(3es24.15)') sqrt(rn), x(1), x(n / 2)
  x = 0.0d0
  err = 1.0d0
  iters = 0
  do while (err > 1.0d-8 .and. iters < 300)
    err = 0.0d0
    !$omp parallel do private(s, k) reduction(max:err)
    do i = 1, n
      s = b(i)
      do k = 2, nnb(i)
        s = s - av(k, i) * x(nbr(k, i))
      end do
      xn(i) = s / d(i)
      err = max(err, abs(xn(i) - x(i)))
    end do
    !$omp parallel do
    do i = 1, n
      x(i) = xn(i)
    end do
    iters = iters + 1
  end do
  write (*, '(i5, 3es24.15)') iters, err, x(1), x(n)
contains
  subroutine add(row, col, v)
    integer, intent(in) :: row, col
    real(8), intent(in) :: v
    nnb(row) = nnb(row) + 1
    nbr(nnb(row), row) = col
    av(nnb(row), row) = v
  end subroutine add
end program hpcg
