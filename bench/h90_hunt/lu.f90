! translate-test: translate=--directives=openmp,translate rtol=1e-12
! NPB LU's SSOR shape: rsd(5, i, j, k) scaled by dt (parallel), the lower sweep blts (a
! wavefront: v(i,j,k) needs v(i-1,j,k), v(i,j-1,k), v(i,j,k-1)) and the upper sweep buts as
! translate regions (kept sequential), the update u += tmp*rsd (parallel), and l2norm's
! five sums as an array reduction(+:sum) on k; two SSOR iterations.
program lu
  implicit none
  integer, parameter :: nx = 10, ny = 9, nz = 8
  real(8) :: u(5, nx, ny, nz), rsd(5, nx, ny, nz), a(5, 5), sum5(5), omega, dt, tmp, t(5)
  integer :: i, j, k, m, l, istep
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        do m = 1, 5
          u(m, i, j, k) = 1.0d0 + 0.01d0 * mod(m + 2 * i + 3 * j + 5 * k, 13)
          rsd(m, i, j, k) = 0.1d0 * mod(m * i + j + k, 7) - 0.3d0
        end do
      end do
    end do
  end do
  do l = 1, 5
    do m = 1, 5
      a(m, l) = 0.02d0 * mod(m + 2 * l, 5)
    end do
  end do
  omega = 1.2d0
  dt = 0.5d0
  tmp = 1.0d0 / (omega * (2.0d0 - omega))
  do istep = 1, 2
    !$omp parallel do private(i, j, m)
    do k = 2, nz - 1
      do j = 2, ny - 1
        do i = 2, nx - 1
          do m = 1, 5
            rsd(m, i, j, k) = dt * rsd(m, i, j, k)
          end do
        end do
      end do
    end do
    !$translate kernel blts
    do k = 2, nz - 1
      do j = 2, ny - 1
        do i = 2, nx - 1
          do m = 1, 5
            t(m) = 0.0d0
            do l = 1, 5
              t(m) = t(m) + a(m, l) * (rsd(l, i, j, k - 1) + rsd(l, i, j - 1, k) &
                  + rsd(l, i - 1, j, k))
            end do
          end do
          do m = 1, 5
            rsd(m, i, j, k) = rsd(m, i, j, k) - omega * t(m)
          end do
        end do
      end do
    end do
    !$translate end kernel
    !$translate kernel buts
    do k = nz - 1, 2, -1
      do j = ny - 1, 2, -1
        do i = nx - 1, 2, -1
          do m = 1, 5
            t(m) = 0.0d0
            do l = 1, 5
              t(m) = t(m) + a(l, m) * (rsd(l, i, j, k + 1) + rsd(l, i, j + 1, k) &
                  + rsd(l, i + 1, j, k))
            end do
          end do
          do m = 1, 5
            rsd(m, i, j, k) = rsd(m, i, j, k) - omega * t(m)
          end do
        end do
      end do
    end do
    !$translate end kernel
    !$omp parallel do private(i, j, m)
    do k = 2, nz - 1
      do j = 2, ny - 1
        do i = 2, nx - 1
          do m = 1, 5
            u(m, i, j, k) = u(m, i, j, k) + tmp * rsd(m, i, j, k)
          end do
        end do
      end do
    end do
    sum5 = 0.0d0
    !$omp parallel do private(i, j, m) reduction(+:sum5)
    do k = 2, nz - 1
      do j = 2, ny - 1
        do i = 2, nx - 1
          do m = 1, 5
            sum5(m) = sum5(m) + rsd(m, i, j, k) * rsd(m, i, j, k)
          end do
        end do
      end do
    end do
    write (*, '(i2, 5es24.15)') istep, (sqrt(sum5(m) / ((nx - 2) * (ny - 2) * (nz - 2))), m = 1, 5)
  end do
  write (*, '(2es24.15)') sum(u), u(3, nx / 2, ny / 2, nz / 2)
end program lu
