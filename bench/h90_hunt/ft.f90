! translate-test: translate=--directives=openmp,translate rtol=1e-12
! NPB FT's shape: the exponent table of compute_indexmap (exp of the wave numbers, with the
! index folded as ii = mod(i-1 + nx/2, nx) - nx/2), evolve (complex u0 scaled by the real
! twiddle, copied to u1) in a time loop, and the checksum over 1024 scattered points
! (mod'ed indices, a complex sum: reduction(+:chk)).
program ft
  implicit none
  integer, parameter :: nx = 16, ny = 8, nz = 8, niter = 3
  real(8), parameter :: alpha = 1.0d-6, pi = 3.141592653589793d0
  complex(8) :: u0(nx, ny, nz), u1(nx, ny, nz), chk
  real(8) :: twiddle(nx, ny, nz), ap
  integer :: i, j, k, ii, jj, kk, it, q, r, s
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        u0(i, j, k) = cmplx(0.01d0 * mod(i + 3 * j + 7 * k, 13), &
                            0.02d0 * mod(2 * i + j + 5 * k, 11), kind=8)
      end do
    end do
  end do
  ap = -4.0d0 * alpha * pi * pi
  !$omp parallel do private(i, j, ii, jj, kk)
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        ii = mod(i - 1 + nx / 2, nx) - nx / 2
        jj = mod(j - 1 + ny / 2, ny) - ny / 2
        kk = mod(k - 1 + nz / 2, nz) - nz / 2
        twiddle(i, j, k) = exp(ap * dble(ii * ii + jj * jj + kk * kk))
      end do
    end do
  end do
  do it = 1, niter
    !$omp parallel do private(i, j)
    do k = 1, nz
      do j = 1, ny
        do i = 1, nx
          u0(i, j, k) = u0(i, j, k) * twiddle(i, j, k)
          u1(i, j, k) = u0(i, j, k)
        end do
      end do
    end do
    chk = (0.0d0, 0.0d0)
    !$omp parallel do private(q, r, s) reduction(+:chk)
    do j = 1, 1024
      q = mod(j, nx) + 1
      r = mod(3 * j, ny) + 1
      s = mod(5 * j, nz) + 1
      chk = chk + u1(q, r, s)
    end do
    write (*, '(i3, 2es24.15)') it, dble(chk), aimag(chk)
  end do
end program ft
