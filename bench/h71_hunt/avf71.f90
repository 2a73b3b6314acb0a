module avf
contains
  function twice(v) result(w)
    real(8), intent(in) :: v(:)
    real(8) :: w(size(v))
    w = 2.0d0 * v
  end function
end module
program avf71
  use avf
  implicit none
  integer, parameter :: n = 8
  real(8) :: a(n, n), b(n, n)
  integer :: j
  a = 1.5d0
  !$translate kernel av
  do j = 1, n
    b(:, j) = twice(a(:, j))
  end do
  !$translate end kernel
  write(*, '(4ES24.16)') b(:, 1)
end program avf71
