! translate-test: rtol=1e-13 translate=--directives=openacc
program main
  implicit none
  integer, parameter :: n = 500
  real(8) :: a(n), b(n), c(n), d(n, 8), s
  integer :: i, j
  do i = 1, n
     a(i) = cos(0.1d0 * i); b(i) = 0; c(i) = i
  end do
  !$acc data copyin(a) copyout(b) copy(c) create(d)
  !$acc kernels
  do i = 1, n
     b(i) = a(i) * 2
  end do
  !$acc end kernels
  !$acc parallel loop gang vector
  do i = 2, n
     c(i) = c(i) + b(i - 1)
  end do
  !$acc parallel loop collapse(2) present(d, a)
  do j = 1, 8
     do i = 1, n
        d(i, j) = a(i) * j
     end do
  end do
  !$acc parallel loop
  do i = 1, n
     !$acc loop seq
     do j = 2, 8
        d(i, j) = d(i, j) + d(i, j - 1)
     end do
     c(i) = c(i) + d(i, 8)
  end do
  !$acc update host(c)
  s = sum(c)
  !$acc parallel loop
  do i = 1, n
     c(i) = c(i) + s
  end do
  !$acc end data
  print '(3es24.16)', sum(b), sum(c), s
  s = 0
  !$acc parallel loop reduction(+:s) copyin(c)
  do i = 1, n
     s = s + c(i) * i
  end do
  print '(es24.16)', s
  !$acc kernels
  do i = 2, n
     a(i) = a(i - 1) + 1
  end do
  !$acc end kernels
  print '(es24.16)', sum(a)
end program
