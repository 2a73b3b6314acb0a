subroutine shift(n, a)
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n)
  integer :: i
  !$translate kernel shift_k
  !$translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
  do i = 2, n
     a(i) = a(i-1)
  end do
  !$translate end kernel
end subroutine
