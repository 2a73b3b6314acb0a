! c:359 of bench/e2e_fuzz.py, minimised (the Fortran neighbour): '-j' of a loop counting down.
subroutine f(n, b, a)
  integer, intent(in) :: n
  integer, intent(in) :: b(40)
  integer(8), intent(inout) :: a(40)
  integer :: i, j
  !$translate kernel negated
  do i = 0, n - 1
     do j = 0, -3, -1
        a(i * 4 - j + 1) = b(-j + i + 1) * 10 + j
     end do
  end do
  !$translate end kernel
end subroutine

program main
  integer :: b(40), q
  integer(8) :: a(40)
  do q = 0, 39
     b(q + 1) = mod(q * 7 + 3, 17) - 8
  end do
  a = 0
  call f(8, b, a)
  do q = 1, 32
     print '(i0)', a(q)
  end do
end program
