! Complex data in regions: complex(8) and complex(4) arrays, complex scalars, mixed
! real/complex arithmetic, division, conjg, aimag, cmplx, integer powers, complex reductions.
!
! In the kernels a complex value is a float2 / double2 vector (x: real part, y: imaginary
! part), the memory layout of Fortran complex, so arrays are passed as they are.  Products
! and quotients follow gfortran's formulas operation for operation (Smith's algorithm for
! division), so the translated program prints exactly what the original prints.  The
! elementary functions of complex arguments (abs, sqrt, exp, log) come from the device's math
! library, whose last bits may differ from the host's: their results are printed with nine
! significant digits.

subroutine rotate(n, phase, field, power, coarse)
  implicit none
  integer, intent(in) :: n
  complex(8), intent(in) :: phase
  complex(8), intent(inout) :: field(n)
  real(8), intent(out) :: power(n)
  complex(4), intent(out) :: coarse(n)
  integer :: i

  !$translate kernel rotate_k
  do i = 1, n
     field(i) = phase * field(i) + conjg(field(i)) / (2.0d0 + i)
     power(i) = real(field(i))**2 + aimag(field(i))**2
     coarse(i) = cmplx(field(i))
  end do
  !$translate end kernel
end subroutine rotate

subroutine mix(n, a, b, c, same)
  implicit none
  integer, intent(in) :: n
  complex, intent(in) :: a(n), b(n)
  complex, intent(out) :: c(n)
  integer, intent(out) :: same(n)
  complex, parameter :: shift = (0.5, -1.25)
  integer :: i

  !$translate kernel mix_k
  do i = 1, n
     c(i) = (a(i) - b(i)) / (a(i) + shift) + 3 * a(i)**2 - i * b(i)
     c(i) = c(i) - 2.0 + cmplx(real(i), -0.5 * i) / b(i)**3
     if (a(i) == b(i)) then
        same(i) = 1
     else
        same(i) = 0
     end if
     if (a(i) /= b(i)) c(i) = -c(i) + a(i) / 4.0
  end do
  !$translate end kernel
end subroutine mix

subroutine spectrum(m, n, z, row_total)
  implicit none
  integer, intent(in) :: m, n
  complex(8), intent(in) :: z(m, n)
  complex(8), intent(out) :: row_total(m)
  integer :: i, j

  !$translate kernel spectrum_k
  do i = 1, m
     row_total(i) = (0.0d0, 0.0d0)
     do j = 1, n
        row_total(i) = row_total(i) + z(i, j) * conjg(z(i, j)) * j - z(i, j)**(-2)
     end do
  end do
  !$translate end kernel
end subroutine spectrum

subroutine functions(n, z, radius, roots, growth)
  implicit none
  integer, intent(in) :: n
  complex(8), intent(in) :: z(n)
  real(8), intent(out) :: radius(n)
  complex(8), intent(out) :: roots(n), growth(n)
  integer :: i

  !$translate kernel functions_k
  do i = 1, n
     radius(i) = abs(z(i))
     roots(i) = sqrt(z(i))
     growth(i) = exp(z(i) / 4) * log(z(i) + 3)
  end do
  !$translate end kernel
end subroutine functions

program main
  implicit none
  integer, parameter :: n = 2000, m = 24, k = 50
  complex(8) :: field(n), z(m, k), row_total(m), phase
  complex(4) :: coarse(n), a(n), b(n), c(n)
  complex(8) :: roots(n), growth(n)
  real(8) :: power(n), radius(n)
  integer :: same(n), i, j

  do i = 1, n
     field(i) = cmplx(sin(0.01d0 * i), cos(0.03d0 * i) - 0.5d0, kind=8)
     a(i) = cmplx(mod(i, 17) - 8.0, 0.25 * mod(i, 5))
     b(i) = cmplx(0.5 * mod(i, 7) + 1.0, 1.5 - mod(i, 3))
  end do
  b(7) = a(7)
  b(100) = a(100)
  do j = 1, k
     do i = 1, m
        z(i, j) = cmplx(1.0d0 + 0.1d0 * i, 0.05d0 * j - 1.0d0, kind=8)
     end do
  end do
  phase = (0.6d0, 0.8d0)

  call rotate(n, phase, field, power, coarse)
  call mix(n, a, b, c, same)
  call spectrum(m, k, z, row_total)
  call functions(n, field, radius, roots, growth)

  print '(a, 2es25.16e3)', 'field sum   ', sum(field)
  print '(a, 2es25.16e3)', 'field(n/3)  ', field(n / 3)
  print '(a, es25.16e3)', 'power sum   ', sum(power)
  print '(a, 2es16.7e2)', 'coarse(n/2) ', coarse(n / 2)
  print '(a, 2es16.7e2)', 'c sum       ', sum(c)
  print '(a, 4(2es16.7e2))', 'c(1:4)      ', c(1:4)
  print '(a, i6)', 'same        ', sum(same)
  print '(a, 2es25.16e3)', 'row_total(1)', row_total(1)
  print '(a, 2es25.16e3)', 'row_total(m)', row_total(m)
  print '(a, es17.8e3)', 'radius sum  ', sum(radius)
  print '(a, 2es17.8e3)', 'roots sum   ', sum(roots)
  print '(a, 2es17.8e3)', 'growth sum  ', sum(growth)
end program main
