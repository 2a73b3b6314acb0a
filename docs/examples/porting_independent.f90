subroutine prefix(n, a, c)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n)
  real(8), intent(inout) :: c(n)
  integer :: i
  !$acc kernels
  !$acc loop independent
  do i = 2, n
     c(i) = c(i - 1) + a(i)
  end do
  !$acc end kernels
end subroutine prefix
