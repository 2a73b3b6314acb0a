module opts
  implicit none
  character(len=12) :: limiter = 'minmod'
end module opts
program char73
  use opts
  implicit none
  integer, parameter :: n = 16
  real(8) :: a(0:n + 1), s(n)
  integer :: i, pass
  do i = 0, n + 1
    a(i) = dble(mod(i * 7, 5)) - 1.5d0
  end do
  do pass = 1, 3
    if (pass == 2) limiter = 'superbee'
    if (pass == 3) limiter = 'none'
    !$translate kernel lim
    do i = 1, n
      select case (trim(limiter))
      case ('minmod')
        s(i) = sign(1.0d0, a(i + 1) - a(i)) * min(abs(a(i + 1) - a(i)), abs(a(i) - a(i - 1)))
      case ('superbee', 'vanleer')
        s(i) = 0.5d0 * (a(i + 1) - a(i - 1))
      case ('a':'m')
        s(i) = -1.0d0
      case default
        s(i) = 0.0d0
      end select
    end do
    !$translate end kernel
    write(*, '(4ES24.16)') s
  end do
end program char73
