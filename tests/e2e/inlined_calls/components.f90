module fields
  implicit none
  type grid
    real(8), allocatable :: u(:, :)
    real(8), allocatable :: v(:, :)
  end type grid
contains
  subroutine relax(n, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(inout) :: y(n)
    integer :: k
    do k = 2, n - 1
      y(k) = 0.25d0 * (x(k - 1) + 2 * x(k) + x(k + 1))
    end do
  end subroutine relax
end module fields

subroutine sweep(n, m, g)
  use fields
  implicit none
  integer, intent(in) :: n, m
  type(grid), intent(inout) :: g
  integer :: j
  !$translate kernel sweep_k
  do j = 1, m
    call relax(n, g%u(:, j), g%v(:, j))
  end do
  !$translate end kernel
end subroutine sweep

program main
  use fields
  implicit none
  integer, parameter :: n = 30, m = 12
  type(grid) :: g
  integer :: i, j
  allocate(g%u(n, m), g%v(n, m))
  do j = 1, m
    do i = 1, n
      g%u(i, j) = sin(0.2d0 * i * j)
    end do
  end do
  g%v = 0
  call sweep(n, m, g)
  print '(es24.16)', sum(g%v)
end program main
