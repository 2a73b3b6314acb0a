module cells
  implicit none
contains
  ! per-cell work arrays in a BLOCK: a 3-point stencil, a gradient, a 2x2 solve
  subroutine cellwork(n, u, w, out, det)
    integer, intent(in) :: n
    real(8), intent(in) :: u(0:n + 1), w(3)
    real(8), intent(out) :: out(n), det(n)
    integer :: i
    !$translate kernel cw
    do i = 1, n
      block
        real(8) :: st(-1:1), g(3), m(2, 2), rhs(2)
        integer :: k
        integer, parameter :: perm(3) = [3, 1, 2]
        do k = -1, 1
          st(k) = u(i + k)
        end do
        g(1) = st(1) - st(-1)
        g(2) = st(1) - 2.0d0 * st(0) + st(-1)
        g(3) = st(0)
        do k = 1, 3
          g(k) = g(k) * w(perm(k))
        end do
        m = 0.0d0
        m(1, 1) = 2.0d0 + g(2) * g(2)
        m(2, 2) = 3.0d0 + abs(g(1))
        m(1, 2) = g(3)
        m(2, 1) = -g(3)
        rhs(1) = g(1)
        rhs(2) = g(2)
        det(i) = m(1, 1) * m(2, 2) - m(1, 2) * m(2, 1)
        out(i) = (rhs(1) * m(2, 2) - rhs(2) * m(1, 2)) / det(i) + sum(g) + maxval(st)
      end block
    end do
    !$translate end kernel
  end subroutine
end module cells
program block78
  use cells
  implicit none
  integer, parameter :: n = 37
  real(8) :: u(0:n + 1), w(3), out(n), det(n)
  integer :: i
  do i = 0, n + 1
    u(i) = sin(dble(i) * 0.37d0) + dble(mod(i, 5)) * 0.1d0
  end do
  w = [0.5d0, -1.25d0, 2.0d0]
  call cellwork(n, u, w, out, det)
  write(*, '(4ES24.16)') out
  write(*, '(4ES24.16)') det
end program block78
