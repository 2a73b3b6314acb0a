subroutine show(n, a)
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n)
  integer :: i
  !$translate kernel show_k
  do i = 1, n
     print *, a(i)
  end do
  !$translate end kernel
end subroutine
