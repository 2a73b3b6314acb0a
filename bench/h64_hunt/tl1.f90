! Several regions in a time loop inside a data region, each step a stencil, a copy back and a
! maximum over the field, with an update of the host between steps (odd sizes).
module steps
  implicit none
contains
  subroutine advance(nx, ny, u, w, res)
    integer, intent(in) :: nx, ny
    real(8), intent(inout) :: u(0:nx+1, 0:ny+1), w(0:nx+1, 0:ny+1)
    real(8), intent(out) :: res
    integer :: i, j
    res = 0d0
    !$translate kernel sweep
    do j = 1, ny
      do i = 1, nx
        w(i, j) = 0.25d0 * (u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1))
      end do
    end do
    do j = 1, ny
      do i = 1, nx
        res = max(res, abs(w(i, j) - u(i, j)))
      end do
    end do
    do j = 1, ny
      do i = 1, nx
        u(i, j) = w(i, j)
      end do
    end do
    !$translate end kernel
  end subroutine

  subroutine heat_edge(nx, ny, u, t)
    integer, intent(in) :: nx, ny, t
    real(8), intent(inout) :: u(0:nx+1, 0:ny+1)
    integer :: i
    !$translate kernel edge
    do i = 0, nx + 1
      u(i, 0) = 1d0 + 0.01d0 * t
    end do
    !$translate end kernel
  end subroutine
end module

program tl1
  use steps
  implicit none
  integer, parameter :: nx = 515, ny = 259
  real(8), allocatable :: u(:, :), w(:, :)
  real(8) :: res
  integer :: t
  allocate(u(0:nx+1, 0:ny+1), w(0:nx+1, 0:ny+1))
  u = 0d0; w = 0d0
  !$translate data copy(u) create(w)
  do t = 1, 400
    call heat_edge(nx, ny, u, t)
    call advance(nx, ny, u, w, res)
    if (mod(t, 100) == 0) then
      !$translate update host(u)
      print '(i5,2es25.16)', t, res, sum(u)
    end if
  end do
  !$translate end data
  print '(3es25.16)', u(1, 1), u(nx / 2, ny / 3), u(nx, ny)
end program
