program block3
  implicit none
  integer, parameter :: n = 12
  real(8) :: t(n), v(n)
  type g_t
    real(8) :: t(n)
  end type
  type(g_t) :: g
  integer :: i
  t = 1.0d0
  g%t = 3.0d0
  block
    real(8) :: q(2 * n)
    q = 5.0d0
    associate (z => q(1:n))
      !$translate kernel bl3
      do i = 1, n
        v(i) = t(i) * 2.0d0 + g%t(i) + dble(i)
      end do
      !$translate end kernel
      z = v
    end associate
    t = q(1:n) + q(n+1:2*n)
  end block
  write(*, '(4ES24.16)') v, t
end program block3
