program stride1
  implicit none
  integer, parameter :: n = 16
  real(8) :: a(n), b(n), c(n), d(n / 2)
  integer :: i
  do i = 1, n
    b(i) = dble(i) * 1.25d0
    a(i) = 0.0d0
    c(i) = -1.0d0
  end do
  !$translate kernel st1
  a(1:n:2) = b(2:n:2)
  a(2:n:2) = b(1:n:2) * 2.0d0
  c(n:1:-1) = b(1:n)
  d = b(n:2:-2) + a(1:n:2)
  !$translate end kernel
  write(*, '(4ES24.16)') a, c, d
end program stride1
