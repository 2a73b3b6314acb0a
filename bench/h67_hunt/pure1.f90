module pm
  implicit none
contains
  pure real(8) function poly(x, c)
    real(8), intent(in) :: x, c(:)
    integer :: k
    poly = 0.0d0
    do k = size(c), 1, -1
      poly = poly * x + c(k)
    end do
  end function
  elemental real(8) function clip(x, lo, hi)
    real(8), intent(in) :: x, lo, hi
    clip = min(max(x, lo), hi)
  end function
end module pm
program pure1
  use pm
  implicit none
  integer, parameter :: n = 15, m = 3
  real(8) :: x(n), y(n), c(4), a(n, m), b(n, m)
  integer :: i, j
  c = [1.0d0, -0.5d0, 0.25d0, 0.125d0]
  do i = 1, n
    x(i) = dble(i) * 0.2d0 - 1.0d0
  end do
  do j = 1, m
    do i = 1, n
      a(i, j) = dble(i - 7 * j) * 0.3d0
    end do
  end do
  !$translate kernel pp
  do i = 1, n
    y(i) = poly(x(i), c)
  end do
  do j = 1, m
    b(:, j) = clip(a(:, j), -1.0d0, x(j))
  end do
  !$translate end kernel
  write(*, '(4ES24.16)') y, b
end program pure1
