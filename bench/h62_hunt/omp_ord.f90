! translate-test: translate=--directives=openmp rtol=1e-13
program omp_ord
  implicit none
  integer, parameter :: n = 30
  real(8) :: a(n), s(n), acc
  integer :: i
  do i = 1, n
    a(i) = sqrt(dble(i))
  end do
  acc = 0.0d0
  !$omp parallel do ordered schedule(static, 1)
  do i = 1, n
    a(i) = a(i) * 2.0d0
    !$omp ordered
    acc = acc + a(i)
    s(i) = acc
    !$omp end ordered
  end do
  !$omp end parallel do
  !$omp parallel do
  do i = 1, n
    a(i) = a(i) + s(i)
  end do
  write(*, '(3ES24.16)') acc, s(n), a(7)
end program omp_ord
