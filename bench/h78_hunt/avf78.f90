module vecops
  implicit none
contains
  function twice(v) result(w)
    real(8), intent(in) :: v(:)
    real(8) :: w(size(v))
    w = 2.0d0 * v
  end function
  function rot(x) result(r)
    real(8), intent(in) :: x(3)
    real(8) :: r(3)
    integer :: k
    do k = 1, 3
      r(k) = x(mod(k, 3) + 1) - 0.5d0 * x(k)
    end do
  end function
  function scaled(v, s) result(w)
    real(8), intent(in) :: v(:), s
    real(8), allocatable :: w(:)
    w = s * v + 1.0d0
  end function
  elemental function clamp(x, lo, hi) result(y)
    real(8), intent(in) :: x, lo, hi
    real(8) :: y
    y = min(max(x, lo), hi)
  end function
  subroutine apply(n, m, a, b, c, d)
    integer, intent(in) :: n, m
    real(8), intent(in) :: a(n, m)
    real(8), intent(out) :: b(n, m), c(n, m), d(3, m)
    integer :: j
    !$translate kernel ap
    do j = 1, m
      b(:, j) = twice(a(:, j))
      d(:, j) = rot(a(1:3, j))
      c(:, j) = scaled(b(:, j), dble(j))
      c(:, j) = clamp(c(:, j), -5.0d0, 20.0d0)
    end do
    !$translate end kernel
  end subroutine
end module vecops
program avf78
  use vecops
  implicit none
  integer, parameter :: n = 6, m = 5
  real(8) :: a(n, m), b(n, m), c(n, m), d(3, m)
  integer :: i, j
  do j = 1, m
    do i = 1, n
      a(i, j) = dble(mod(i * 3 + j * 5, 7)) - 2.5d0
    end do
  end do
  call apply(n, m, a, b, c, d)
  write(*, '(4ES24.16)') b, c, d
end program avf78
