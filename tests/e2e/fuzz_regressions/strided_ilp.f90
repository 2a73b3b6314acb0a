! e2e fuzzer (h73), seed c:5 in Fortran: a DO loop with a non-unit step split with an ilp
! inner loop crashed the translator inside isl (a gist in code generation's guards).
subroutine strided(n, a, b, c)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(24, 24)
  real(8), intent(inout) :: b(24, 24), c(24)
  integer :: i
  !$translate kernel down_by_two
  !$translate split_iname("i", 13, inner_tag="ilp")
  do i = n + 1, 1, -2
     b(i, i) = a(i, i) + i
  end do
  !$translate end kernel
  !$translate kernel up_by_three
  !$translate split_iname("i", 5, inner_tag="ilp")
  do i = 1, n, 3
     c(i) = a(i, 2) * 2 - i
  end do
  !$translate end kernel
end subroutine strided

program main
  implicit none
  real(8) :: a(24, 24), b(24, 24), c(24)
  integer :: i, j, n
  c = -1
  do j = 1, 24
     do i = 1, 24
        a(i, j) = 0.25d0 * mod(i * 7 + j * 3, 17)
        b(i, j) = 0.5d0 * mod(i + j, 5)
     end do
  end do
  do n = 4, 22, 9
     call strided(n, a, b, c)
  end do
  do i = 1, 24
     write(*, '(I3, 2ES25.16E3)') i, b(i, i), c(i)
  end do
end program main
