! An array of a BIND(C) derived type (p(i)%x): each component the region uses is passed as
! p%x, the compiler's contiguous copy of it, so the layout of the type is never assumed.
module parts
  use iso_c_binding
  implicit none
  type, bind(c) :: particle
    real(c_double) :: x, y, vx, vy
    integer(c_int) :: id
  end type particle
contains
  subroutine push(n, p, dt)
    integer, intent(in) :: n
    type(particle), intent(inout) :: p(n)
    real(c_double), intent(in) :: dt
    integer :: i
    !$translate kernel push_k
    do i = 1, n
      p(i)%vx = p(i)%vx - dt * p(i)%x
      p(i)%x = p(i)%x + dt * p(i)%vx
      p(i)%id = p(i)%id + mod(i, 3)
    end do
    !$translate end kernel
  end subroutine push
end module parts

program main
  use parts
  implicit none
  type(particle), allocatable :: p(:)
  integer :: i, t, n, k
  real(c_double) :: s
  n = 1000
  allocate(p(n))
  do i = 1, n
    p(i)%x = i * 0.01d0; p(i)%y = -i * 0.5d0; p(i)%vx = 1d0; p(i)%vy = 0.25d0; p(i)%id = i
  end do
  do t = 1, 4
    call push(n, p, 0.1d0)
  end do
  s = 0; k = 0
  do i = 1, n
    s = s + p(i)%x + 3 * p(i)%vx + p(i)%y; k = k + p(i)%id
  end do
  print '(es25.16, i10)', s, k
end program main
