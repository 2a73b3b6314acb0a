program i64loop
  use iso_fortran_env, only: int64, real32
  implicit none
  integer(int64), parameter :: n = 40_int64
  integer(int64) :: i, h(n), g(n)
  integer :: k
  real(real32) :: x(n), y(n)
  do i = 1, n
    x(i) = real(i, real32) * 0.1_real32
  end do
  !$translate kernel lp
  do i = 1_int64, n
    h(i) = (i + 70000_int64) * (i + 70000_int64)
    g(i) = i * 1000000007
    y(i) = x(i) * 3.0 + 0.1
  end do
  !$translate end kernel
  write(*, '(4I22)') h, g
  write(*, '(4ES16.7)') y
end program i64loop
