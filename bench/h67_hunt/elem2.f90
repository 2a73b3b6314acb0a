module lim_m
  implicit none
contains
  elemental real(8) function minmod(x, y)
    real(8), intent(in) :: x, y
    minmod = 0.5d0 * (sign(1.0d0, x) + sign(1.0d0, y)) * min(abs(x), abs(y))
  end function
end module lim_m
program elem2
  use lim_m
  implicit none
  integer, parameter :: n = 30
  real(8) :: u(0:n+1), du(n), g(n)
  integer :: i
  do i = 0, n + 1
    u(i) = sin(dble(i) * 0.4d0) * dble(i)
  end do
  !$translate kernel mm
  du = minmod(u(1:n) - u(0:n-1), u(2:n+1) - u(1:n))
  g = merge(du, -du, u(1:n) > 0.0d0)
  !$translate end kernel
  write(*, '(4ES24.16)') du, g
end program elem2
