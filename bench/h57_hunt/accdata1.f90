! translate-test: translate=--directives=openacc
program accdata1
  implicit none
  integer, parameter :: n = 64
  real(8) :: a(n), b(n)
  integer :: i, it
  do i = 1, n
    a(i) = i
  end do
  b = 0
  !$acc data copy(a, b)
  do it = 1, 3
    !$acc parallel loop
    do i = 1, n
      b(i) = b(i) + a(i) * it
    end do
    a(1) = a(1) + 100      ! host code inside the data region, no update
    !$acc parallel loop
    do i = 2, n
      a(i) = a(i) + 0.5d0 * b(i - 1)
    end do
  end do
  !$acc end data
  print '(3es24.16)', sum(a), sum(b), a(1)
end program accdata1
