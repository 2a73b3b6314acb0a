subroutine scale(n, a, b)
  implicit none
  integer, intent(in) :: n
#ifdef SP
  real(4), intent(in) :: a(n)
  real(4), intent(out) :: b(n)
#else
  real(8), intent(in) :: a(n)
  real(8), intent(out) :: b(n)
#endif
  integer :: i
  !$translate kernel scale_k
  do i = 1, n
     b(i) = 2*a(i)
  end do
  !$translate end kernel
end subroutine
