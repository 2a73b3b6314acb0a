! translate-test: translate=--directives=openmp
program equiv1
  implicit none
  integer, parameter :: n = 64
  real(8) :: a(n), b(n), c(n)
  equivalence (a, b)
  integer :: i
  do i = 1, n
    a(i) = i * 0.5d0
  end do
  !$omp parallel do
  do i = 1, n - 1
    c(i) = b(i + 1)
    a(i) = c(i) * 2
  end do
  print '(3es24.16)', sum(a), sum(b), sum(c)
end program equiv1
