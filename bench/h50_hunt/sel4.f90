program sel4
  use, intrinsic :: ieee_arithmetic
  implicit none
  integer, parameter :: n = 3001
  real(8) :: a(n), m, nan
  real(4) :: f(n), fm
  integer :: i, loc, l2(1), ia(n), im
  logical :: mk(n)
  nan = ieee_value(1d0, ieee_quiet_nan)
  do i = 1, n
    a(i) = dble(mod(i * 37, 101)) - 50d0
    f(i) = real(mod(i * 11, 29)) - 14.0
    ia(i) = mod(i * 7, 53)
    mk(i) = mod(i, 3) == 0
  end do
  a(10) = nan; a(500) = -50d0; a(2999) = -50d0; a(1000) = nan
  m = 1d300; loc = 0
  !$translate kernel nan_loc
  do i = 1, n
    if (a(i) < m) then
      m = a(i)
      loc = i
    end if
  end do
  !$translate end kernel
  write (*, '(z17, i6)') m, loc
  m = nan; loc = 0
  !$translate kernel nan_start_loc
  do i = 1, n
    if (a(i) > m) then
      m = a(i)
      loc = i
    end if
  end do
  !$translate end kernel
  write (*, '(z17, i6)') m, loc
  !$translate kernel intrinsics
  im = maxval(ia)
  fm = minval(f)
  !$translate end kernel
  write (*, *) im, fm
end program
