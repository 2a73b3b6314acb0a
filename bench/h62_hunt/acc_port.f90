! translate-test: translate=--directives=openacc rtol=1e-13
module physics
  implicit none
contains
  real(8) function flux(a, b)
    !$acc routine seq
    real(8), intent(in) :: a, b
    flux = 0.5d0 * (a + b) - 0.1d0 * (b - a)
  end function flux
end module physics

program acc_port
  use physics
  implicit none
  integer, parameter :: nx = 40, ny = 30, nz = 6
  real(8) :: u(nx, ny), v(nx, ny), w(nx, ny), col(nx, ny), s, tmp(nz)
  integer :: i, j, k, it
  do j = 1, ny
    do i = 1, nx
      u(i, j) = dble(i) * 0.01d0 + dble(j) * 0.02d0
      v(i, j) = 0.0d0
      w(i, j) = 1.0d0
    end do
  end do
  !$acc data copyin(w) copy(u, v) copyout(col)
  do it = 1, 3
    !$acc parallel loop gang vector collapse(2) async(1)
    do j = 2, ny - 1
      do i = 2, nx - 1
        v(i, j) = flux(u(i - 1, j), u(i + 1, j)) + flux(u(i, j - 1), u(i, j + 1)) * w(i, j)
      end do
    end do
    !$acc wait(1)
    !$acc kernels
    do j = 2, ny - 1
      do i = 2, nx - 1
        u(i, j) = 0.5d0 * u(i, j) + 0.25d0 * v(i, j)
      end do
    end do
    do j = 1, ny
      u(1, j) = u(2, j)
      u(nx, j) = u(nx - 1, j)
    end do
    !$acc end kernels
  end do
  !$acc parallel loop gang private(tmp)
  do j = 1, ny
    !$acc loop vector private(tmp)
    do i = 1, nx
      !$acc loop seq
      do k = 1, nz
        tmp(k) = u(i, j) * dble(k)
      end do
      col(i, j) = tmp(1) + tmp(nz)
    end do
  end do
  !$acc update host(u)
  u(1, 1) = -1.0d0
  !$acc update device(u)
  !$acc end data
  s = 0.0d0
  !$acc parallel loop collapse(2) reduction(+:s) present_or_copyin(u)
  do j = 1, ny
    do i = 1, nx
      s = s + u(i, j) * col(i, j)
    end do
  end do
  write(*, '(4ES24.16)') s, u(5, 5), col(7, 8), v(3, 3)
end program acc_port
