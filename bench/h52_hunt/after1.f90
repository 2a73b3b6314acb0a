! translate-test: translate=--directives=openmp,openacc
program main
  implicit none
  integer, parameter :: n = 200
  real(8) :: a(n), b(n), t, u
  integer :: i, j, k, cnt
  do i = 1, n
     a(i) = sin(0.1d0 * i)
  end do
  t = -5; u = -7
  !$acc parallel loop private(t)
  do i = 1, n
     t = a(i) * 2
     b(i) = t + 1
  end do
  print "(es24.16, i6)", sum(b), i
  !$translate kernel k2
  do j = 1, n
     u = a(j) - 1
     b(j) = u * b(j)
     if (b(j) > 1000) b(j) = b(j) - 1
     b(j) = b(j) + 1
  end do
  !$translate end kernel
  print '(2es24.16, i6)', u, sum(b), j
  cnt = 0
  !$omp parallel do private(k)
  do i = 1, n
     do k = 1, 3
        b(i) = b(i) + k
     end do
  end do
  print '(es24.16, 2i6)', sum(b), i, k
  !$acc kernels
  do i = 1, n
     a(i) = a(i) + b(i)
  end do
  do k = 1, n, 3
     b(k) = 0
  end do
  !$acc end kernels
  print '(2es24.16, 2i6)', sum(a), sum(b), i, k
end program
