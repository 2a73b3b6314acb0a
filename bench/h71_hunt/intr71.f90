program intr71
  use iso_fortran_env, only: int64, real32, real64
  implicit none
  integer, parameter :: n = 16
  real(8) :: x(n), r(n, 8)
  integer :: iv(n, 6)
  integer(int64) :: big(n, 4), b(n)
  real(real32) :: s(n)
  integer :: i
  do i = 1, n
    x(i) = (dble(i) - 8.5d0) * 0.75d0
    b(i) = int(i, int64) * 123456789012_int64 - 987654321098_int64
  end do
  !$translate kernel intr
  do i = 1, n
    iv(i, 1) = nint(x(i))
    iv(i, 2) = ceiling(x(i))
    iv(i, 3) = floor(x(i))
    iv(i, 4) = modulo(int(x(i) * 4.0d0), 3)
    iv(i, 5) = modulo(-i, 5) + mod(-i, 5)
    iv(i, 6) = nint(x(i) * 2.0d0)
    r(i, 1) = anint(x(i))
    r(i, 2) = aint(x(i))
    r(i, 3) = modulo(x(i), 1.5d0)
    r(i, 4) = real(x(i), kind=real32)
    r(i, 5) = dble(real(x(i) / 3.0d0, real32))
    r(i, 6) = sign(1.0d0, x(i)) * abs(x(i)) ** 0.5d0
    r(i, 7) = dim(x(i), 0.5d0)
    r(i, 8) = real(nint(x(i), int64), real64)
    big(i, 1) = ishft(b(i), -7)
    big(i, 2) = iand(b(i), 1048575_int64)
    big(i, 3) = ieor(b(i), ishft(b(i), 13))
    big(i, 4) = ior(ishft(b(i), 3), 7_int64)
    s(i) = real(x(i), real32) * 1.1_real32
  end do
  !$translate end kernel
  write(*, '(6I8)') iv
  write(*, '(4ES24.16)') r
  write(*, '(4I22)') big
  write(*, '(4ES16.8)') s
end program intr71
