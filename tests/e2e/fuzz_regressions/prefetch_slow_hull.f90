! e2e fuzzer (h73), seed fortran:198: add_prefetch(..., fetch_bounding_box=True) of two reads
! of a 3-D array over a loop counting down by two around a triangular loop.  The bounding box
! had few pieces, but isl's convex hull of them ran for minutes; now a hull that takes more
! than about a second is replaced by each dimension's own hull.
subroutine slow_hull(n, b0, a0, a2)
  implicit none
  integer, intent(in) :: n
  integer(8), intent(in) :: b0(12, 12, 12)
  integer(8), intent(inout) :: a0(40)
  real(4), intent(inout) :: a2(0:39)
  integer :: i, j
  !$translate kernel down_by_two
  !$translate split_iname("i", 2, outer_tag="g.0", inner_tag="l.0")
  !$translate add_prefetch("b0", ["i_inner"], fetch_bounding_box=True)
  do i = n - 2, 2, -2
     do j = 0, i - 1
        a2(i + 34) = real(b0(i + 3, j + 5, i + 1), 4)
     end do
     a0(mod(i, 2) + 3) = b0(i - 1, i + 9, i + 6)
  end do
  !$translate end kernel
end subroutine slow_hull

program main
  implicit none
  integer(8) :: b0(12, 12, 12), a0(40)
  real(4) :: a2(0:39)
  integer :: q
  b0 = reshape([(int(mod(q * 7 + 3, 17) - 8, 8), q = 0, 1727)], shape(b0))
  a0 = 0
  a2 = 0
  call slow_hull(5, b0, a0, a2)
  call slow_hull(4, b0, a0, a2)
  write(*, '(I0)') a0
  write(*, '(ES16.8E3)') a2
end program main
