module state_m
  implicit none
  real(8), allocatable :: u(:), un(:)
  integer :: nn
end module state_m
program modalloc
  use state_m
  implicit none
  integer :: i, it
  nn = 20
  allocate(u(-1:nn+2), un(-1:nn+2))
  do i = -1, nn + 2
    u(i) = sin(dble(i))
  end do
  un = 0.0d0
  do it = 1, 3
    call step()
  end do
  write(*, '(4ES24.16)') u
contains
  subroutine step()
    integer :: i
    !$translate kernel stp
    do i = 1, nn
      un(i) = u(i) + 0.1d0 * (u(i+1) - 2.0d0 * u(i) + u(i-1))
    end do
    u(1:nn) = un(1:nn)
    !$translate end kernel
  end subroutine
end program modalloc
