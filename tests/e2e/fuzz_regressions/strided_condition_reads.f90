! e2e fuzzer (h73), seed fortran:112: a loop counting down by two whose condition reads a
! dummy array three ways.  The extent the reads need is a maximum with a piece per stride
! residue; printing its condition met an integer division isl had no expression for, and the
! translator stopped with an internal error (exit 2).
subroutine strided(n, b, a)
  implicit none
  integer, intent(in) :: n
  integer(8), intent(in) :: b(1:24, 1:24)
  real(8), intent(inout) :: a(0:23)
  integer :: i
  !$translate kernel down_by_two
  do i = n, 0, -2
     if (b(i + 13, 10 - i) == b(i + 3, i + 6) * b(i + 17, i + 7)) then
        a(i) = a(i) + 1
     else
        a(i) = a(i) - i
     end if
  end do
  !$translate end kernel
end subroutine strided

program main
  implicit none
  integer(8) :: b(24, 24)
  real(8) :: a(0:23)
  integer :: q, n
  b = reshape([(int(mod(q * 7 + 3, 5) - 2, 8), q = 0, 24 * 24 - 1)], shape(b))
  a = 0
  do n = 3, 6
     call strided(n, b, a)
  end do
  write(*, '(ES25.16E3)') a
end program main
