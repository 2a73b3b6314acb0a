! translate-test: translate=--directives=openmp,openacc
program main
  implicit none
  integer, parameter :: n = 200
  real(8) :: a(n), b(n), t, u
  integer :: i
  do i = 1, n
     a(i) = sin(0.1d0 * i)
  end do
  t = -5; u = -7
  !$acc parallel loop private(t)
  do i = 1, n
     t = a(i) * 2
     b(i) = t + 1
  end do
  !$omp parallel do private(u)
  do i = 1, n
     u = a(i) * 3
     b(i) = b(i) + u
  end do
  print '(3es24.16)', t, u, sum(b)
end program
