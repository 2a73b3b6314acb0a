! e2e fuzzer (h76's over-strict refusal, third round h84): a loop split onto l.0 whose
! sequential part joins the reductions, whose terms read what the loop body wrote just
! before in the same iteration (a(i) = ..; s = s + a(i); m = max(m, a(i))).  Before:
! refused, "mapping i_inner to l.0 races ... writes s" (the term read something the loop
! writes).
subroutine reduce_written(n, b, a, res)
  implicit none
  integer, intent(in) :: n
  integer, intent(in) :: b(40)
  integer, intent(inout) :: a(40)
  integer(8), intent(inout) :: res(2)
  integer :: i, s, m
  !$translate kernel same_iteration
  !$translate split_iname("i", 16, inner_tag="l.0")
  s = 0
  m = -1000
  do i = 1, n
    a(i) = b(i) * 2 + 1
    s = s + a(i)
    m = max(m, a(i))
  end do
  !$translate end kernel
  res(1) = s
  res(2) = m
end subroutine reduce_written

program main
  implicit none
  integer :: b(40), a(40), q
  integer(8) :: res(2)
  b = [(mod(q * 7 + 3, 17) - 8, q = 0, 39)]
  a = 0
  call reduce_written(37, b, a, res)
  write(*, '(I6)') res
  call reduce_written(5, b, a, res)
  write(*, '(I6)') a, res
end program main
