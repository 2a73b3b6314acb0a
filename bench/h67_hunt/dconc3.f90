program dconc3
  use iso_fortran_env, only: int64
  implicit none
  integer, parameter :: n = 10
  real(8) :: a(n), b(n)
  integer :: i, j
  integer(int64) :: k
  integer(int64) :: h(n)
  i = -7
  j = 42
  k = 5
  do concurrent (j = 1:n)
    a(j) = dble(j)
  end do
  !$translate kernel dc3
  do concurrent (i = 1:n)
    b(i) = a(i) * 2.0d0
  end do
  do concurrent (k = 1:n)
    h(k) = k * 3000000000_int64 + k * 1000000007
  end do
  !$translate end kernel
  write(*, '(4ES24.16)') b
  write(*, '(4I22)') h
  write(*, *) i, j, k
end program dconc3
