! translate-test: translate=--directives=openmp
! real exponents of exactly 2, 1, -1 (gfortran -O1 folds them to x*x, x, 1/x) and 3, 0.5
program pw
  implicit none
  integer, parameter :: n = 1000000
  real(8) :: x(n), y(n), z(n), w(n)
  real :: f(n), g(n), h(n)
  integer :: i, d(4)
  integer(8) :: s
  do i = 1, n
    x(i) = (i * 0.7548776662466927d0 - floor(i * 0.7548776662466927d0)) * 10.0d0 ** mod(i, 37) - 3.0d0
    f(i) = real(x(i)) * 1.37
  end do
!$omp parallel do
  do i = 1, n
    y(i) = x(i)**2.0d0 + x(i)**1.0d0
    z(i) = x(i)**(-1.0d0)
    g(i) = f(i)**2.0
    h(i) = f(i)**2.0d0
    w(i) = f(i)**2.0d0 * 0.5d0
  end do
!$omp end parallel do
  d = 0
  do i = 1, n
    if (y(i) /= x(i)*x(i) + x(i)) d(1) = d(1) + 1
    if (z(i) /= 1.0d0 / x(i)) d(2) = d(2) + 1
    if (g(i) /= f(i)*f(i)) d(3) = d(3) + 1
    if (w(i) /= (dble(f(i))*dble(f(i))) * 0.5d0) d(4) = d(4) + 1
  end do
  s = 0
  do i = 1, n
    s = ieor(s * 31, transfer(y(i), s)) + transfer(z(i), s) + transfer(dble(g(i)), s) + transfer(dble(h(i)), s)
  end do
  print *, d, s
end program
