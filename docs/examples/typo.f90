subroutine scale(n, a)
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n)
  integer :: i
  !$tranlsate kernel scale_k
  do i = 1, n
     a(i) = 2*a(i)
  end do
  !$tranlsate end kernel
end subroutine
