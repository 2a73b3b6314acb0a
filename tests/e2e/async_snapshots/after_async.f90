! A Fortran twin of after_async.c: module array h written by an async region (queue 2), then
! passed to plain calls without wait (packed: at most 16 KiB), with assumed-shape dummies.
module fields
  implicit none
  real(8) :: g(3000), h(3000)
contains
  subroutine upd(n, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(:)
    real(8), intent(inout) :: y(:)
    integer :: i
    !$translate kernel upd
    do i = 1, n
      y(i) = y(i) * 0.5d0 + x(i) + g(i)
    end do
    !$translate end kernel
  end subroutine
  subroutine modonly(n)
    integer, intent(in) :: n
    integer :: i
    !$translate kernel modonly async(2)
    do i = 1, n
      h(i) = h(i) + g(i) * 2d0
    end do
    !$translate end kernel
  end subroutine
  subroutine twice(n, a, b)
    integer, intent(in) :: n
    real(8), intent(inout) :: a(n)
    real(8), intent(in) :: b(n)
    integer :: i
    !$translate kernel twicek
    do i = 1, n
      a(i) = a(i) + b(i)
    end do
    !$translate end kernel
  end subroutine
end module
program p
  use fields
  implicit none
  real(8) :: x(3000), y(3000)
  integer :: k, n
  integer, parameter :: sizes(7) = (/ 1, 2047, 2048, 2049, 3000, 17, 1000 /)
  do k = 1, 3000
    x(k) = mod(k, 7) * 0.5d0
    y(k) = 1d0
    g(k) = mod(k, 5) * 0.25d0
    h(k) = -1d0
  end do
  do k = 1, 7
    n = sizes(k)
    call upd(n, x, y)
    call modonly(n)
    call twice(n, h, g)
    call upd(n, h(1:n), y)
    write (*, '(i5, 3z17)') n, sum(y), sum(h), y(n)
    g(k) = g(k) + 1d0
  end do
end program
