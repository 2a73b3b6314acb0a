! Five OPTIONAL dummies tested with present() in one region (h78 stopped at three): a
! reduction-style update with optional weights, bias, mask and clipping bounds, called with
! several combinations.
module update_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  subroutine update(n, u, f, w, bias, mask, lo, hi)
    integer, intent(in) :: n
    real(dp), intent(inout) :: u(n)
    real(dp), intent(in) :: f(n)
    real(dp), intent(in), optional :: w(n), bias
    logical, intent(in), optional :: mask(n)
    real(dp), intent(in), optional :: lo, hi
    real(dp) :: r
    integer :: i
    !$translate kernel upd
    do i = 1, n
      r = f(i)
      if (present(w)) r = r * w(i)
      if (present(bias)) r = r + bias
      if (present(mask)) then
        if (.not. mask(i)) r = 0.0_dp
      end if
      r = u(i) + r
      if (present(lo)) r = max(r, lo)
      if (present(hi)) r = min(r, hi)
      u(i) = r
    end do
    !$translate end kernel
  end subroutine update
end module update_mod

program opt85
  use update_mod
  implicit none
  integer, parameter :: n = 12
  real(dp) :: u(n), f(n), w(n)
  logical :: mask(n)
  integer :: i
  do i = 1, n
    u(i) = 0.1_dp * i
    f(i) = sin(0.9_dp * i)
    w(i) = 1.0_dp + 0.05_dp * i
    mask(i) = mod(i, 3) /= 0
  end do
  call update(n, u, f)
  write(*, '(4ES24.16)') u
  call update(n, u, f, w, 0.5_dp, mask, -0.2_dp, 1.1_dp)
  write(*, '(4ES24.16)') u
  call update(n, u, f, bias=-0.25_dp, hi=0.9_dp)
  write(*, '(4ES24.16)') u
  call update(n, u, f, w=w, mask=mask, lo=0.0_dp)
  write(*, '(4ES24.16)') u
  call update(n, u, f, mask=mask)
  write(*, '(4ES24.16)') u
end program opt85
