! e2e fuzzer, third round (h84), fortran:5133 minimised: an integer maximum reduced across
! work groups under an IF; the reduction's neutral element, the smallest int32, was printed
! as the long literal -2147483648L, and OpenCL's max(int, long) is ambiguous: the kernel did
! not build (the program stopped with CL_BUILD_PROGRAM_FAILURE).
subroutine guarded_max(n, m, b, res)
  implicit none
  integer, intent(in) :: n, m
  integer, intent(in) :: b(40)
  integer(8), intent(inout) :: res(2)
  integer :: i, s, t
  s = -1000
  t = 1000
  !$translate kernel guarded_max
  !$translate tag_inames("i:g.0")
  do i = 1, n
    if (i <= 4) then
      s = max(s, m)
    end if
    if (b(i) > 0) then
      t = min(t, b(i))
    end if
  end do
  !$translate end kernel
  res(1) = s
  res(2) = t
end subroutine guarded_max

program main
  implicit none
  integer :: b(40), q
  integer(8) :: res(2)
  b = [(mod(q * 7 + 3, 17) - 8, q = 0, 39)]
  call guarded_max(37, 5, b, res)
  write(*, '(I12)') res
  call guarded_max(3, -2000, b, res)
  write(*, '(I12)') res
end program main
