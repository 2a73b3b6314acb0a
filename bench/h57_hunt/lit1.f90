! translate-test: translate=--directives=openmp
module consts
  implicit none
  integer, parameter :: dp = kind(1.d0), sp = kind(1.0)
  real(dp), parameter :: third = 1.0 / 3.0
  real(dp), parameter :: pi = 3.14159265358979_dp
  real, parameter :: half_sp = 0.5
end module consts

program lits
  use consts
  implicit none
  integer, parameter :: n = 64
  real(dp) :: a(n), b(n), c(n), d(n)
  real(sp) :: s(n), t(n)
  integer :: k(n), m(n)
  integer :: i
  do i = 1, n
    a(i) = (i - 32) * 0.37_dp + 0.5_dp
    s(i) = real(i, sp) * 0.1
  end do
  !$omp parallel do
  do i = 1, n
    b(i) = 0.1 * a(i) + third * a(i) ** 2 - 1.0e-1 * half_sp
    c(i) = abs(a(i)) ** 0.5 + a(i) ** 3 - 2 ** (-2) + 10.0_dp ** (i / 16)
    d(i) = anint(a(i)) + aint(a(i)) + nint(a(i)) + int(a(i)) + floor(a(i)) + ceiling(a(i))
    t(i) = s(i) * 0.3 + sqrt(s(i)) + s(i) / 7 + a(i)
    k(i) = (i - 33) / 4 + mod(i - 33, 5) + modulo(i - 33, 5) + sign(3, 20 - i) + (-i) ** 2
    m(i) = nint(s(i) * 2.5) + nint(-a(i)) + int(s(i) * 1.5_sp) + ishft(i, 2) + max(i, 20, n - i)
  end do
  !$omp end parallel do
  do i = 1, n, 7
    print '(4es24.16, es16.8, 2i8)', b(i), c(i), d(i), a(i), t(i), k(i), m(i)
  end do
  print '(2es24.16)', sum(b), sum(c)
end program lits
