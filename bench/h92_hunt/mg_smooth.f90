! translate-test: translate=--directives=openmp rtol=1e-10
! An MG-like smoother sequence in one OpenMP parallel region (our own code after NPB MG's
! resid / psinv / comm3 / norm2u3): a sequential sweep loop around worksharing loops over k
! with private line buffers, periodic boundary copies, a max and a sum norm, a
! report under master, counters under single.  The smoother is an orphaned !$omp do in a
! subroutine the region calls.
program mg_smooth
  implicit none
  integer, parameter :: n = 34
  real(8) :: u(n, n, n), v(n, n, n), r(n, n, n), rnm2, rnmu
  integer :: i1, i2, i3, sweeps
  do i3 = 1, n
    do i2 = 1, n
      do i1 = 1, n
        v(i1, i2, i3) = sin(0.3d0 * i1) * cos(0.2d0 * i2) + 0.01d0 * i3
        u(i1, i2, i3) = 0.0d0
        r(i1, i2, i3) = 0.0d0
      end do
    end do
  end do
  call smooth_all(u, v, r, rnm2, rnmu, sweeps)
  write (*, '(i4, 2es24.15)') sweeps, rnm2, rnmu
  write (*, '(3es24.15)') u(2, 3, 4), u(n / 2, n / 2, n / 2), r(5, 6, 7)
contains
  subroutine psinv(r, u)
    real(8), intent(in) :: r(:, :, :)
    real(8), intent(inout) :: u(:, :, :)
    real(8) :: r1(n), r2(n)
    integer :: i1, i2, i3
    !$omp do private(r1, r2)
    do i3 = 2, n - 1
      do i2 = 2, n - 1
        do i1 = 1, n
          r1(i1) = r(i1, i2 - 1, i3) + r(i1, i2 + 1, i3) + r(i1, i2, i3 - 1) + r(i1, i2, i3 + 1)
          r2(i1) = r(i1, i2 - 1, i3 - 1) + r(i1, i2 + 1, i3 - 1) &
                   + r(i1, i2 - 1, i3 + 1) + r(i1, i2 + 1, i3 + 1)
        end do
        do i1 = 2, n - 1
          u(i1, i2, i3) = u(i1, i2, i3) + 0.2d0 * r(i1, i2, i3) &
                          + 0.05d0 * (r(i1 - 1, i2, i3) + r(i1 + 1, i2, i3) + r1(i1)) &
                          + 0.01d0 * (r2(i1) + r1(i1 - 1) + r1(i1 + 1))
        end do
      end do
    end do
    !$omp end do
  end subroutine psinv

  subroutine smooth_all(u, v, r, rnm2, rnmu, sweeps)
    real(8), intent(inout) :: u(:, :, :), r(:, :, :)
    real(8), intent(in) :: v(:, :, :)
    real(8), intent(out) :: rnm2, rnmu
    integer, intent(out) :: sweeps
    real(8) :: u1(n), s, a0
    integer :: i1, i2, i3, it
    s = 0.0d0
    rnmu = 0.0d0
    sweeps = 0
    !$omp parallel private(i1, i2, i3, u1, a0)
    do it = 1, 4
      a0 = -8.0d0 / 3.0d0
      ! resid: r = v - A u
      !$omp do private(u1)
      do i3 = 2, n - 1
        do i2 = 2, n - 1
          do i1 = 1, n
            u1(i1) = u(i1, i2 - 1, i3) + u(i1, i2 + 1, i3) + u(i1, i2, i3 - 1) + u(i1, i2, i3 + 1)
          end do
          do i1 = 2, n - 1
            r(i1, i2, i3) = v(i1, i2, i3) - a0 * u(i1, i2, i3) &
                            - 0.1d0 * (u1(i1) + u(i1 - 1, i2, i3) + u(i1 + 1, i2, i3))
          end do
        end do
      end do
      !$omp end do
      ! comm3: periodic faces, one axis after the other
      !$omp do
      do i3 = 2, n - 1
        do i2 = 2, n - 1
          r(1, i2, i3) = r(n - 1, i2, i3)
          r(n, i2, i3) = r(2, i2, i3)
        end do
      end do
      !$omp end do
      !$omp do
      do i3 = 2, n - 1
        do i1 = 1, n
          r(i1, 1, i3) = r(i1, n - 1, i3)
          r(i1, n, i3) = r(i1, 2, i3)
        end do
      end do
      !$omp end do
      call psinv(r, u)
      !$omp single
      sweeps = sweeps + 1
      !$omp end single
    end do
    !$omp do reduction(+:s) reduction(max:rnmu)
    do i3 = 2, n - 1
      do i2 = 2, n - 1
        do i1 = 2, n - 1
          s = s + r(i1, i2, i3)**2
          rnmu = max(rnmu, abs(r(i1, i2, i3)))
        end do
      end do
    end do
    !$omp end do
    !$omp master
    rnm2 = sqrt(s / dble((n - 2)**3))
    !$omp end master
    !$omp end parallel
  end subroutine smooth_all
end program mg_smooth
