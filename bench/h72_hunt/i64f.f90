! translate-test: translate=--directives=openmp
module m
  use iso_fortran_env, only: int64
  implicit none
contains
  pure integer(int64) function f(i, j)
    integer(int64), intent(in) :: i, j
    f = i * j + i + j
  end function
end module
program p
  use iso_fortran_env, only: int64
  use m
  implicit none
  integer(int64) :: i, j, n, g(40, 30), s, t
  integer :: k
  n = 100000_int64
  t = 0
!$omp parallel do collapse(2) reduction(+:t)
  do i = 1, 40
    do j = 1, 30
      g(i, j) = (i + 60000) * n + j * 70000 + f(i + 1000000, j * 100000) + ishft(i + j, 31)
      t = t + (i + j) * 1000000007
    end do
  end do
!$omp end parallel do
  s = 0
  do k = 1, 30
    s = ieor(s, sum(g(:, k)) * k)
  end do
  print *, s, t
end program
