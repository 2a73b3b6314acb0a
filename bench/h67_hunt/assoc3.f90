program assoc3
  implicit none
  integer, parameter :: n = 12
  real(8) :: u(n), v(n), w(2 * n)
  integer :: i
  do i = 1, n
    u(i) = dble(i)
    v(i) = 0.0d0
  end do
  do i = 1, 2 * n
    w(i) = dble(100 + i)
  end do
  associate (u => w(n + 1:2 * n))
    !$translate kernel as3
    do i = 1, n
      v(i) = u(i) * 2.0d0
    end do
    !$translate end kernel
  end associate
  write(*, '(4ES24.16)') v
end program assoc3
