! e2e fuzzer (h73), seed fortran:212: do i split with inner_tag="unr" around a do j loop and
! a statement after it.  Unrolled loops are scheduled inside the sequential ones, so the copies
! of i_inner ran interleaved with j and the writes of a1 landed in another order: a silent
! wrong result.  Now a race between the copies is refused, as for ilp.
subroutine unrolled(n, b0, a1)
  implicit none
  integer, intent(in) :: n
  real(4), intent(in) :: b0(40)
  real(4), intent(inout) :: a1(40)
  integer :: i, j
  !$translate kernel around_j
  !$translate split_iname("i", 5, inner_tag="unr")
  do i = 1, n - 2
     do j = 0, 5
        a1(j + 3) = b0(i + 35) + i
     end do
     a1(i + 3) = a1(i + 3) + 100 * i
  end do
  !$translate end kernel
end subroutine unrolled
