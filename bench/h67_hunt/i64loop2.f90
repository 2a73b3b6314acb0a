! translate-test: translate=--directives=openmp,translate
module kern_m
  use iso_fortran_env, only: int64
  implicit none
contains
  subroutine fill(n, v)
    integer(int64), intent(in) :: n
    integer(int64), intent(inout) :: v(n)
    integer(int64) :: k
    do k = 1, n
      v(k) = v(k) + k * 2147483647_int64 + k * 100000
    end do
  end subroutine
end module kern_m
program i64loop2
  use iso_fortran_env, only: int64
  use kern_m
  implicit none
  integer(int64), parameter :: n = 30
  integer(int64) :: i, j, a(n, n), b(n), s, t(n)
  a = 0
  b = 0
  !$translate kernel tri
  do i = 1, n
    do j = i, n
      a(j, i) = i * j * 1000000 + ishft(j, 33) + mod(i * 3000000000_int64, 7_int64)
    end do
  end do
  !$translate end kernel
  !$translate kernel cal
  call fill(n, b)
  !$translate end kernel
  s = 0
  !$omp parallel do reduction(+:s)
  do i = 1, n
    s = s + i * 300000000
  end do
  !$translate kernel sec
  do i = 1, n
    t(i) = sum(a(i:n, i)) / n + i * 99999
  end do
  !$translate end kernel
  write(*, '(3I24)') a(:, 1), a(n, :), b, t
  write(*, '(I24)') s
end program i64loop2
