! e2e fuzzer (h76's over-strict refusal, third round h84): one accumulator updated at two
! loop levels (s = s + b(i) in loop i, s = s + c(j, i) in loop j inside it; a product and a
! minimum likewise), loop i split onto l.0.  Before: refused, "mapping i_inner to l.0 races
! ... writes s" (each update saw the other as a use of its accumulator).
subroutine two_levels(n, b, c, u, res)
  implicit none
  integer, intent(in) :: n
  integer, intent(in) :: b(40), c(8, 40)
  real(8), intent(in) :: u(40)
  real(8), intent(inout) :: res(3)
  integer :: i, j, s, m
  real(8) :: pr
  !$translate kernel two_levels
  !$translate split_iname("i", 8, inner_tag="l.0")
  s = 0
  m = 1000
  pr = 1
  do i = 1, n
    s = s + b(i)
    pr = pr * u(i)
    do j = 1, 8
      s = s + c(j, i)
      m = min(m, c(j, i))
      pr = pr * u(j)
    end do
    m = min(m, 3 * b(i))
  end do
  !$translate end kernel
  res(1) = s
  res(2) = m
  res(3) = pr
end subroutine two_levels

program main
  implicit none
  integer :: b(40), c(8, 40), q
  real(8) :: u(40), res(3)
  b = [(mod(q * 7 + 3, 17) - 8, q = 0, 39)]
  c = reshape([(mod(q * 5 + 1, 23) - 11, q = 0, 319)], shape(c))
  u = [(real(1 - 2 * mod(q / 3, 2), 8), q = 0, 39)]
  call two_levels(37, b, c, u, res)
  write(*, '(3ES25.16E3)') res
  call two_levels(3, b, c, u, res)
  write(*, '(3ES25.16E3)') res
end program main
