! e2e fuzzer (h76, third round h84): loops that run no iteration.  An inner loop empty for
! every value of the outer one (do j = 1, i with i <= -1), a constant empty loop (before:
! refused, "a kernel region cannot hold a loop that never runs"), a split and mapped loop
! that never runs, and a region of nothing but an empty loop whose variable the procedure
! reads after it (k = 5, its value after zero trips).  Before, the first and third were
! refused with "loop over 'j' has no lower bound" (exit 1, a wrong reason).
subroutine empty_loops(n, b, a)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: b(0:39)
  real(8), intent(inout) :: a(0:39)
  integer :: i, j, k
  !$translate kernel triangular_empty
  do i = -3, -1
    a(i + 3) = a(i + 3) + 1
    do j = 1, i
      a(i + 5) = a(i + 5) + b(j)
    end do
  end do
  !$translate end kernel
  !$translate kernel constant_empty
  do i = 0, n - 1
    a(i + 6) = a(i + 6) + 2
    do j = 1, 0
      a(i + 6) = a(i + 6) + b(j)
    end do
  end do
  !$translate end kernel
  !$translate kernel mapped_empty
  !$translate split_iname("j", 4, outer_tag="g.0", inner_tag="l.0")
  do i = 0, n - 1
    a(i + 20) = a(i + 20) * 2 + b(i)
    do j = 0, i - n
      a(j) = a(j) + b(i)
    end do
  end do
  !$translate end kernel
  !$translate kernel only_empty
  do k = 5, 1
    a(k) = -1
  end do
  !$translate end kernel
  a(39) = a(39) + k
end subroutine empty_loops

program main
  implicit none
  real(8) :: b(0:39), a(0:39)
  integer :: q
  b = [(real(mod(q * 7 + 3, 17) - 8, 8), q = 0, 39)]
  a = [(real(mod(q * 3 + 1, 13) - 6, 8) / 2, q = 0, 39)]
  call empty_loops(9, b, a)
  call empty_loops(3, b, a)
  write(*, '(ES25.16E3)') a
end program main
