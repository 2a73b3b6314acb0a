subroutine scale(n, a, b)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n)
  real(8), intent(out) :: b(n)
  integer :: i
  !$translate kernel scale_k
  do i = 1, n
#ifdef SP
     b(i) = 2*real(a(i), 4)
#else
     b(i) = 2*a(i)
#endif
  end do
  !$translate end kernel
end subroutine
