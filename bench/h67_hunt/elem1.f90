module elem_m
  implicit none
contains
  elemental real(8) function limiter(x, y)
    real(8), intent(in) :: x, y
    limiter = max(0.0d0, min(x, y))
  end function
  pure real(8) function sq(x)
    real(8), intent(in) :: x
    sq = x * x
  end function
end module elem_m
program elem1
  use elem_m
  use iso_fortran_env, only: int64, real32
  implicit none
  integer, parameter :: n = 40
  real(8) :: a(n), b(n), c(n)
  real(real32) :: f(n)
  integer(int64) :: k(n)
  integer :: i
  do i = 1, n
    a(i) = dble(i) * 0.3d0 - 4.0d0
    b(i) = 2.0d0 - dble(i) * 0.1d0
  end do
  !$translate kernel el
  do i = 1, n
    c(i) = limiter(a(i), b(i)) + sq(a(i))
    f(i) = real(a(i), real32) * 1.5_real32
    k(i) = int(i, int64) * 3000000000_int64
  end do
  !$translate end kernel
  write(*, '(4ES24.16)') c
  write(*, '(4ES16.7)') f
  write(*, '(4I22)') k
end program elem1
