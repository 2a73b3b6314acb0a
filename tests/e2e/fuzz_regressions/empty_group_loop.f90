! e2e fuzzer (h73), seed fortran:124: a statement after a parallel loop that has no values
! (do j = 0, i with i = -1).  The first group runs that statement, but the grid had as many
! groups as the loop has values, none: the kernel was not launched and the statement's
! update was lost (silent wrong result).
subroutine empty_inner(n, b, a)
  implicit none
  integer, intent(in) :: n
  integer, intent(in) :: b(12, 12, 12)
  integer, intent(inout) :: a(24, 24)
  integer :: i, j
  !$translate kernel after_empty
  !$translate split_iname("j", 16, outer_tag="g.0", inner_tag="l.0")
  do i = -1, -1, -1
     do j = 0, i
        a(i + 3, j + 3) = a(i + 3, j + 3) + 1
     end do
     a(i + 3, i + 25) = a(i + 3, i + 25) + b(i + 9, i + 2, 2 - i)
  end do
  !$translate end kernel
  !$translate kernel sometimes_empty
  !$translate split_iname("j", 16, outer_tag="g.0", inner_tag="l.0")
  do i = n, -1, -1
     do j = 0, i
        a(i + 3, j + 1) = a(i + 3, j + 1) + 1
     end do
     a(i + 3, 24) = a(i + 3, 24) + b(1, 2, 3)
  end do
  !$translate end kernel
end subroutine empty_inner

program main
  implicit none
  integer :: b(12, 12, 12), a(24, 24), q
  b = reshape([(mod(q * 7 + 3, 17) - 8, q = 0, 1727)], shape(b))
  a = reshape([(mod(q * 3 + 1, 13) - 6, q = 0, 575)], shape(a))
  call empty_inner(20, b, a)
  call empty_inner(-1, b, a)
  write(*, '(24I4)') a
end program main
