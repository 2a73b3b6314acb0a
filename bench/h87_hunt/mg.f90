! translate-test: translate=--directives=openmp rtol=1e-13
! NPB MG shapes: resid and psinv 27-point stencils with the u1/u2 (r1/r2) line temporaries
! private to each (i3, i2) iteration, rprj3 restriction with j = 2*j1 - d, interp
! prolongation with stride-2 writes, and the periodic border exchange comm3.
module mg_sizes
  implicit none
  integer, parameter :: nf = 18, nc = 10
end module mg_sizes

program mg
  use mg_sizes
  implicit none
  real(8) :: u(nf, nf, nf), v(nf, nf, nf), r(nf, nf, nf), s(nc, nc, nc), z(nc, nc, nc)
  real(8) :: a(0:3), c(0:3), norm2
  integer :: i1, i2, i3
  a = (/ -8.0d0/3.0d0, 0.0d0, 1.0d0/6.0d0, 1.0d0/12.0d0 /)
  c = (/ -3.0d0/8.0d0, 1.0d0/32.0d0, -1.0d0/64.0d0, 0.0d0 /)
  do i3 = 1, nf
    do i2 = 1, nf
      do i1 = 1, nf
        u(i1, i2, i3) = 0.0d0
        v(i1, i2, i3) = dble(mod(i1 * 3 + i2 * 5 + i3 * 7, 17)) / 17.0d0 - 0.5d0
      end do
    end do
  end do
  call resid(u, v, r, nf, a)
  call psinv(r, u, nf, c)
  call resid(u, v, r, nf, a)
  call rprj3(r, nf, s, nc)
  z = 0.0d0
  call psinv(s, z, nc, c)
  call interp(z, nc, u, nf)
  call resid(u, v, r, nf, a)
  norm2 = 0.0d0
  !$omp parallel do reduction(+:norm2) private(i1, i2)
  do i3 = 2, nf - 1
    do i2 = 2, nf - 1
      do i1 = 2, nf - 1
        norm2 = norm2 + r(i1, i2, i3)**2
      end do
    end do
  end do
  write (*, '(es24.15)') sqrt(norm2 / dble((nf - 2)**3))
  write (*, '(4es24.15)') u(2, 2, 2), u(9, 7, 5), r(nf - 1, 3, 4), s(5, 5, 5)
end program mg

subroutine comm3(u, n)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: u(n, n, n)
  integer :: i1, i2, i3
  !$omp parallel do private(i1)
  do i3 = 2, n - 1
    do i2 = 2, n - 1
      u(1, i2, i3) = u(n - 1, i2, i3)
      u(n, i2, i3) = u(2, i2, i3)
    end do
  end do
  !$omp parallel do private(i2)
  do i3 = 2, n - 1
    do i1 = 1, n
      u(i1, 1, i3) = u(i1, n - 1, i3)
      u(i1, n, i3) = u(i1, 2, i3)
    end do
  end do
  !$omp parallel do private(i1)
  do i2 = 1, n
    do i1 = 1, n
      u(i1, i2, 1) = u(i1, i2, n - 1)
      u(i1, i2, n) = u(i1, i2, 2)
    end do
  end do
end subroutine comm3

subroutine resid(u, v, r, n, a)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u(n, n, n), v(n, n, n), a(0:3)
  real(8), intent(out) :: r(n, n, n)
  real(8) :: u1(64), u2(64)
  integer :: i1, i2, i3
  !$omp parallel do default(shared) private(i1, i2, i3, u1, u2)
  do i3 = 2, n - 1
    do i2 = 2, n - 1
      do i1 = 1, n
        u1(i1) = u(i1, i2 - 1, i3) + u(i1, i2 + 1, i3) + u(i1, i2, i3 - 1) + u(i1, i2, i3 + 1)
        u2(i1) = u(i1, i2 - 1, i3 - 1) + u(i1, i2 + 1, i3 - 1) &
                 + u(i1, i2 - 1, i3 + 1) + u(i1, i2 + 1, i3 + 1)
      end do
      do i1 = 2, n - 1
        r(i1, i2, i3) = v(i1, i2, i3) - a(0) * u(i1, i2, i3) &
                        - a(2) * (u2(i1) + u1(i1 - 1) + u1(i1 + 1)) &
                        - a(3) * (u2(i1 - 1) + u2(i1 + 1))
      end do
    end do
  end do
  call comm3(r, n)
end subroutine resid

subroutine psinv(r, u, n, c)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: r(n, n, n), c(0:3)
  real(8), intent(inout) :: u(n, n, n)
  real(8) :: r1(64), r2(64)
  integer :: i1, i2, i3
  !$omp parallel do default(shared) private(i1, i2, i3, r1, r2)
  do i3 = 2, n - 1
    do i2 = 2, n - 1
      do i1 = 1, n
        r1(i1) = r(i1, i2 - 1, i3) + r(i1, i2 + 1, i3) + r(i1, i2, i3 - 1) + r(i1, i2, i3 + 1)
        r2(i1) = r(i1, i2 - 1, i3 - 1) + r(i1, i2 + 1, i3 - 1) &
                 + r(i1, i2 - 1, i3 + 1) + r(i1, i2 + 1, i3 + 1)
      end do
      do i1 = 2, n - 1
        u(i1, i2, i3) = u(i1, i2, i3) + c(0) * r(i1, i2, i3) &
                        + c(1) * (r(i1 - 1, i2, i3) + r(i1 + 1, i2, i3) + r1(i1)) &
                        + c(2) * (r2(i1) + r1(i1 - 1) + r1(i1 + 1))
      end do
    end do
  end do
  call comm3(u, n)
end subroutine psinv

subroutine rprj3(r, m, s, mk)
  implicit none
  integer, intent(in) :: m, mk
  real(8), intent(in) :: r(m, m, m)
  real(8), intent(out) :: s(mk, mk, mk)
  real(8) :: x1(64), y1(64), x2, y2
  integer :: i1, i2, i3, j1, j2, j3
  !$omp parallel do default(shared) private(j1, j2, j3, i1, i2, i3, x1, y1, x2, y2)
  do j3 = 2, mk - 1
    i3 = 2 * j3 - 2
    do j2 = 2, mk - 1
      i2 = 2 * j2 - 2
      do j1 = 2, mk
        i1 = 2 * j1 - 2
        x1(i1 - 1) = r(i1 - 1, i2 - 1, i3) + r(i1 - 1, i2 + 1, i3) &
                     + r(i1 - 1, i2, i3 - 1) + r(i1 - 1, i2, i3 + 1)
        y1(i1 - 1) = r(i1 - 1, i2 - 1, i3 - 1) + r(i1 - 1, i2 - 1, i3 + 1) &
                     + r(i1 - 1, i2 + 1, i3 - 1) + r(i1 - 1, i2 + 1, i3 + 1)
      end do
      do j1 = 2, mk - 1
        i1 = 2 * j1 - 2
        y2 = r(i1, i2 - 1, i3 - 1) + r(i1, i2 - 1, i3 + 1) &
             + r(i1, i2 + 1, i3 - 1) + r(i1, i2 + 1, i3 + 1)
        x2 = r(i1, i2 - 1, i3) + r(i1, i2 + 1, i3) + r(i1, i2, i3 - 1) + r(i1, i2, i3 + 1)
        s(j1, j2, j3) = 0.5d0 * r(i1, i2, i3) &
                        + 0.25d0 * (r(i1 - 1, i2, i3) + r(i1 + 1, i2, i3) + x2) &
                        + 0.125d0 * (x1(i1 - 1) + x1(i1 + 1) + y2) &
                        + 0.0625d0 * (y1(i1 - 1) + y1(i1 + 1))
      end do
    end do
  end do
  call comm3(s, mk)
end subroutine rprj3

subroutine interp(z, mm, u, n)
  implicit none
  integer, intent(in) :: mm, n
  real(8), intent(in) :: z(mm, mm, mm)
  real(8), intent(inout) :: u(n, n, n)
  real(8) :: z1(64), z2(64), z3(64)
  integer :: i1, i2, i3
  !$omp parallel do default(shared) private(i1, i2, i3, z1, z2, z3)
  do i3 = 1, mm - 1
    do i2 = 1, mm - 1
      do i1 = 1, mm
        z1(i1) = z(i1, i2 + 1, i3) + z(i1, i2, i3)
        z2(i1) = z(i1, i2, i3 + 1) + z(i1, i2, i3)
        z3(i1) = z(i1, i2 + 1, i3 + 1) + z(i1, i2, i3 + 1) + z1(i1)
      end do
      do i1 = 1, mm - 1
        u(2 * i1 - 1, 2 * i2 - 1, 2 * i3 - 1) = u(2 * i1 - 1, 2 * i2 - 1, 2 * i3 - 1) &
                                                + z(i1, i2, i3)
        u(2 * i1, 2 * i2 - 1, 2 * i3 - 1) = u(2 * i1, 2 * i2 - 1, 2 * i3 - 1) &
                                            + 0.5d0 * (z(i1 + 1, i2, i3) + z(i1, i2, i3))
      end do
      do i1 = 1, mm - 1
        u(2 * i1 - 1, 2 * i2, 2 * i3 - 1) = u(2 * i1 - 1, 2 * i2, 2 * i3 - 1) + 0.5d0 * z1(i1)
        u(2 * i1, 2 * i2, 2 * i3 - 1) = u(2 * i1, 2 * i2, 2 * i3 - 1) &
                                        + 0.25d0 * (z1(i1) + z1(i1 + 1))
      end do
      do i1 = 1, mm - 1
        u(2 * i1 - 1, 2 * i2 - 1, 2 * i3) = u(2 * i1 - 1, 2 * i2 - 1, 2 * i3) + 0.5d0 * z2(i1)
        u(2 * i1, 2 * i2 - 1, 2 * i3) = u(2 * i1, 2 * i2 - 1, 2 * i3) &
                                        + 0.25d0 * (z2(i1) + z2(i1 + 1))
      end do
      do i1 = 1, mm - 1
        u(2 * i1 - 1, 2 * i2, 2 * i3) = u(2 * i1 - 1, 2 * i2, 2 * i3) + 0.25d0 * z3(i1)
        u(2 * i1, 2 * i2, 2 * i3) = u(2 * i1, 2 * i2, 2 * i3) + 0.125d0 * (z3(i1) + z3(i1 + 1))
      end do
    end do
  end do
end subroutine interp
