program ptr1
  implicit none
  integer, parameter :: n = 32
  real(8), target :: buf(n, 2)
  real(8), pointer :: p(:), q(:)
  integer :: i
  do i = 1, n
    buf(i, 1) = dble(i)
    buf(i, 2) = 0.0d0
  end do
  p => buf(:, 1)
  q => buf(:, 2)
  call scale(n, p, q)
  write(*, '(4ES24.16)') buf
contains
  subroutine scale(n, x, y)
    integer, intent(in) :: n
    real(8), contiguous, intent(in) :: x(:)
    real(8), contiguous, intent(inout) :: y(:)
    integer :: i
    !$translate kernel sc
    do i = 1, n
      y(i) = x(i) * 3.0d0 + y(i)
    end do
    !$translate end kernel
  end subroutine
end program ptr1
