subroutine step(n, m, u, v, w, tot)
  use stencils
  implicit none
  integer, intent(in) :: n, m
  real(dp), intent(inout) :: u(0:n+1, m), v(n, m), w(n, m), tot(m)
  integer :: j
  real(dp) :: t
  !$translate kernel step_k
  do j = 1, m
    call smooth_row(n, u(:, j), v(:, j))
    call scale_add(n, 0.5_dp, v(1, j), w(1, j), t)
    tot(j) = t + shifted(j)
  end do
  !$translate end kernel
contains
  real(dp) function shifted(k)
    integer, intent(in) :: k
    shifted = w(1, k) + u(0, k)
  end function shifted
end subroutine step

program main
  use stencils, only: dp
  implicit none
  integer, parameter :: n = 10, m = 40
  real(dp) :: u(0:n+1, m), v(n, m), w(n, m), tot(m)
  integer :: i, j
  do j = 1, m
    do i = 0, n + 1
      u(i, j) = sin(0.3_dp * i + j)
    end do
  end do
  w = 1
  v = 0
  call step(n, m, u, v, w, tot)
  print '(3es24.16)', sum(v), sum(w), sum(tot)
end program main
