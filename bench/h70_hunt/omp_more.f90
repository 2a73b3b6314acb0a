! translate-test: translate=--directives=openmp rtol=1e-13
! OpenMP Fortran: target teams over distribute parallel do on separate lines, simd with
! linear, taskloop in single, parallel do with atomic on an array element (left), target
! data with use_device_ptr-free maps, declare simd.
module omore
contains
  real(8) function sq(x)
    !$omp declare simd(sq)
    real(8), intent(in) :: x
    sq = x * x
  end function sq
end module omore

program omp_more
  use omore
  implicit none
  integer, parameter :: n = 50
  real(8) :: x(n), y(n), z(n), h(5), s
  integer :: i, j
  do i = 1, n
    x(i) = dble(i) * 0.25d0
  end do
  !$omp target data map(to: x) map(from: y)
  !$omp target teams
  !$omp distribute parallel do
  do i = 1, n
    y(i) = sq(x(i)) - 1.0d0
  end do
  !$omp end distribute parallel do
  !$omp end target teams
  !$omp end target data
  j = 0
  !$omp simd linear(j:1)
  do i = 1, n
    j = j + 1
    z(i) = y(i) + dble(j)
  end do
  s = 0
  !$omp parallel
  !$omp single
  !$omp taskloop reduction(+:s)
  do i = 1, n
    s = s + z(i)
  end do
  !$omp end taskloop
  !$omp end single
  !$omp end parallel
  h = 0
  !$omp parallel do
  do i = 1, n
    !$omp atomic
    h(mod(i, 5) + 1) = h(mod(i, 5) + 1) + 1.0d0
  end do
  !$omp end parallel do
  print '(4ES24.16)', sum(y), sum(z), s, sum(h)
  print '(I6)', j
end program omp_more
