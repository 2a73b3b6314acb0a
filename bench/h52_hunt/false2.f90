! translate-test: translate=--directives=openmp,openacc
program main
  implicit none
  integer, parameter :: n = 100
  real(8) :: a(n), b(2*n)
  integer :: i
  a = 1; b = 2
  !$acc parallel loop independent
  do i = 2, n
     a(i) = a(i) + a(i - 1)
  end do
  !$omp parallel do
  do i = 1, n
     b(i + 1) = b(i) * 0.5d0 + 1
  end do
  !$acc kernels loop independent
  do i = 1, n
     b(n + 1 - i) = b(i) + 1
  end do
  !$omp parallel do
  do i = 1, n
     b(i) = a(n + 1 - i) + b(i + n)
  end do
  print '(2es24.16)', sum(a), sum(b)
end program
