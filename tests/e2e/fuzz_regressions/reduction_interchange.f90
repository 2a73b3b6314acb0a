! e2e fuzzer (h76), seed fortran:1098 with --features all, minimised: a product reduction
! over a loop split with outer_tag="g.0", nested in loop j, made code generation put j
! around the split loop's sequential part for every statement of the kernel: the writes of
! a(j) and a(i) ran interchanged and distributed (wrong numbers, exit 0).
subroutine red(n, b, a, s)
  implicit none
  integer, intent(in) :: n
  integer, intent(in) :: b(8, 8)
  integer, intent(inout) :: a(40)
  integer(8), intent(inout) :: s
  integer :: i, j
  !$translate kernel red
  !$translate split_iname("i", 16, outer_tag="g.0")
  do i = 1, n
    do j = 1, 4
      s = s * b(i, j)
      a(j) = 10 * i + j
    end do
    a(i) = a(i) + 100
  end do
  !$translate end kernel
end subroutine red

program main
  implicit none
  integer :: b(8, 8), a(40), q
  integer(8) :: s
  do q = 1, 8
    b(q, :) = 1 - 2 * mod(q / 3, 2)
  end do
  a = 0
  s = 1
  call red(6, b, a, s)
  write(*, '(I0)') a(1:8)
  write(*, '(I0)') s
end program main
