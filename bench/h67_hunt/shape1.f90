program shape1
  implicit none
  integer, parameter :: n = 9, m = 4
  real(8) :: a(0:n, m), b(0:n, m)
  integer :: i, j
  do j = 1, m
    do i = 0, n
      a(i, j) = dble(i - j)
    end do
  end do
  call ops(a, b)
  write(*, '(4ES24.16)') b
contains
  subroutine ops(x, y)
    real(8), intent(in) :: x(0:, :)
    real(8), intent(out) :: y(0:, :)
    integer :: i, j
    !$translate kernel sh
    do j = 1, size(x, 2)
      do i = lbound(x, 1), ubound(x, 1)
        y(i, j) = x(i, j) * dble(size(x, 1)) + dble(ubound(y, 2))
      end do
    end do
    !$translate end kernel
  end subroutine
end program shape1
