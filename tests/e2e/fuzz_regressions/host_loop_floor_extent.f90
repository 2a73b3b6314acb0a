! e2e fuzzer, third round (h84), fortran:2014 of the second round's features, minimised: a
! region cut into launches around host loop i (a minimum reduced over loop j needs each i's
! writes of a2 first) whose a2 extent holds floor divisions of -m by 3.  The host program's
! glue printed them as C's truncating `-m / 3`: a2's extent came out 28 columns instead of
! 24, and the runtime found a2's bytes overlapping a1's (the program stopped; with other
! values the extent is too small and elements are not copied).
subroutine floor_extent(n, m, b0, a1, a2, res)
  implicit none
  integer, intent(in) :: n, m
  integer, intent(in) :: b0(40)
  integer(8), intent(inout) :: a2(1:24, 1:24)
  real(4), intent(inout) :: a1(1:24, 1:24)
  real(4), intent(inout) :: res(1)
  integer :: i, j
  real(4) :: s
  !$translate kernel floor_extent
  s = 1000.0
  do i = m, n
    a2(i + 3, i + 3) = b0(i)
    do j = 2, 2, -1
      a2(j + 3, j + 3) = a2(j + 3, modulo(i - 1, 3) + 22)
      if (3.0 < s) then
        s = 3.0
      end if
      a1(i + 3, j + 3) = j
    end do
    a2(i + 3, i + 3) = a2(i + 3, i + 3) + 1
  end do
  res(1) = s
  !$translate end kernel
end subroutine floor_extent

program main
  implicit none
  integer :: b0(40), q
  real(4) :: a1(1:24, 1:24), res(1)
  integer(8) :: a2(1:24, 1:24)
  common /adjacent/ a2, a1
  b0 = [(mod(q * 7 + 3, 17) - 8, q = 0, 39)]
  a1 = 0
  a2 = reshape([(int(mod(q * 3 + 1, 13) - 6, 8), q = 0, 575)], shape(a2))
  call floor_extent(7, 2, b0, a1, a2, res)
  write(*, '(I4)') a2(1:12, :)
  write(*, '(F6.1)') a1(1:10, 1:6), res
end program main
