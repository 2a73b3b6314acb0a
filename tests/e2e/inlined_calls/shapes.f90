module ops
  implicit none
contains
  subroutine axpy(n, a, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: a, x(:)
    real(8), intent(inout) :: y(:)
    integer :: k
    do k = 1, size(x)
      y(k) = y(k) + a * x(k)
    end do
  end subroutine axpy

  pure real(8) function clip(v, lo, hi)
    real(8), intent(in) :: v, lo, hi
    real(8) :: w
    w = v
    if (w < lo) then
      w = lo
    else if (w > hi) then
      w = hi
    end if
    clip = w
  end function clip

  subroutine count_pos(n, x, c)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    integer, intent(out) :: c
    integer :: k
    c = 0
    do k = 1, n
      if (x(k) > 0) c = c + 1
    end do
  end subroutine count_pos
end module ops

subroutine go(n, m, a, b, cnt)
  use ops
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(inout) :: a(n, m), b(n)
  integer, intent(out) :: cnt(m)
  integer :: i, j
  !$translate kernel whole
  call axpy(n, 2.0d0, b, a(:, 1))
  do j = 2, m
    call axpy(n, 0.5d0 * j, a(:, 1), a(:, j))
    do i = 1, n
      if (clip(a(i, j), -1.0d0, 1.0d0) > 0.5d0) a(i, j) = clip(a(i, j) * 2, 0.0d0, 3.0d0)
    end do
  end do
  do j = 1, m
    call count_pos(n, a(1, j), cnt(j))
  end do
  !$translate end kernel
end subroutine go

program main
  implicit none
  integer, parameter :: n = 50, m = 20
  real(8) :: a(n, m), b(n)
  integer :: cnt(m), i, j
  do j = 1, m
    do i = 1, n
      a(i, j) = cos(0.7d0 * i - 0.3d0 * j)
    end do
  end do
  b = -0.25d0
  call go(n, m, a, b, cnt)
  print '(2es24.16, i8)', sum(a), a(7, 9), sum(cnt)
end program main
