program intern71
  implicit none
  integer, parameter :: n = 20
  real(8) :: a(n), b(n), w
  integer :: i
  w = 0.25d0
  do i = 1, n
    a(i) = dble(i) * 0.3d0
  end do
  !$translate kernel ik
  do i = 1, n
    b(i) = f(a(i)) + g(i)
    call bump(b(i))
  end do
  !$translate end kernel
  write(*, '(4ES24.16)') b
contains
  real(8) function f(x)
    real(8), intent(in) :: x
    f = x * x + w
  end function
  integer function g(k)
    integer, intent(in) :: k
    select case (mod(k, 4))
    case (0)
      g = 1
    case (1:2)
      g = -k
    case default
      g = 2 * k
    end select
  end function
  subroutine bump(v)
    real(8), intent(inout) :: v
    if (v > 3.0d0) v = v - w
  end subroutine
end program intern71
