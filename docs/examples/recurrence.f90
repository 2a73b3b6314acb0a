subroutine prefix(n, a)
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n)
  integer :: i
  !$translate kernel prefix_k
  do i = 2, n
     a(i) = a(i) + a(i-1)
  end do
  !$translate end kernel
end subroutine
