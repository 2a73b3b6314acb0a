! translate-test: rtol=1e-5
! Transcendental built-ins in real(4) and real(8): OpenCL allows a few ulp, so the tolerance
! is loose for real(4); the exact parts (sqrt, division) are checked by the other programs.
program math1
  implicit none
  integer, parameter :: n = 300007
  real(8) :: x(n), y(n)
  real(4) :: p(n), q(n)
  integer :: i
  do i = 1, n
    x(i) = (mod(i * 7919, 20011) - 10000) / 1234.5d0
    p(i) = real(x(i), 4) * 0.5
  end do
  !$translate kernel fun
  do i = 1, n
    y(i) = sin(x(i)) + cos(x(i) * 0.5d0) * exp(-abs(x(i))) + log(1d0 + x(i)**2) &
           + atan2(x(i), 1.5d0) + tanh(x(i)) + abs(x(i))**2.5d0 / (1d0 + abs(x(i))**1.5d0)
    q(i) = sin(p(i)) + exp(p(i) * 0.1) - log10(2.0 + abs(p(i))) + sqrt(abs(p(i))) + cosh(p(i) * 0.2)
  end do
  !$translate end kernel
  print '(4es25.16)', sum(y), y(1), y(n / 2), y(n)
  print '(4es16.7)', sum(real(q, 8)), q(1), q(n / 2), q(n)
end program
