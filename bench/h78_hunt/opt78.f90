module smooth
  implicit none
contains
  ! a relaxation step with optional weights, a mask and a bias, as real codes take them
  subroutine relax(n, u, f, w, mask, bias)
    integer, intent(in) :: n
    real(8), intent(inout) :: u(n)
    real(8), intent(in) :: f(n)
    real(8), intent(in), optional :: w(n)
    logical, intent(in), optional :: mask(n)
    real(8), intent(in), optional :: bias
    integer :: i
    real(8) :: r
    !$translate kernel relax_k
    do i = 1, n
      r = f(i) - 0.5d0 * u(i)
      if (present(w)) r = r * w(i)
      if (present(bias)) r = r + bias
      if (present(mask)) then
        if (mask(i)) u(i) = u(i) + r
      else
        u(i) = u(i) + r
      end if
    end do
    !$translate end kernel
  end subroutine
  ! the second optional is tested only where the first is absent
  subroutine scale(n, u, w, bias)
    integer, intent(in) :: n
    real(8), intent(inout) :: u(n)
    real(8), intent(in), optional :: w(n), bias
    integer :: i
    !$translate kernel scale_k
    do i = 1, n
      if (present(w)) then
        u(i) = u(i) * w(i)
      else if (present(bias)) then
        u(i) = u(i) - bias
      end if
    end do
    !$translate end kernel
  end subroutine
end module smooth
program opt78
  use smooth
  implicit none
  integer, parameter :: n = 23
  real(8) :: u(n), f(n), w(n)
  logical :: m(n)
  integer :: i
  do i = 1, n
    u(i) = dble(i) * 0.25d0
    f(i) = 1.0d0 / dble(i)
    w(i) = dble(mod(i, 4)) * 0.5d0
    m(i) = mod(i, 3) /= 0
  end do
  call relax(n, u, f)
  write(*, '(4ES24.16)') u
  call relax(n, u, f, w)
  write(*, '(4ES24.16)') u
  call relax(n, u, f, mask=m)
  write(*, '(4ES24.16)') u
  call relax(n, u, f, bias=0.125d0)
  write(*, '(4ES24.16)') u
  call relax(n, u, f, w, m)
  write(*, '(4ES24.16)') u
  call relax(n, u, f, w, bias=-0.5d0)
  write(*, '(4ES24.16)') u
  call relax(n, u, f, mask=m, bias=2.0d0)
  write(*, '(4ES24.16)') u
  call relax(n, u, f, w, m, 0.75d0)
  write(*, '(4ES24.16)') u
  call scale(n, u)
  call scale(n, u, bias=0.5d0)
  write(*, '(4ES24.16)') u
  call scale(n, u, w, 3.0d0)
  write(*, '(4ES24.16)') u
  call scale(n, u, w)
  write(*, '(4ES24.16)') u
end program opt78
