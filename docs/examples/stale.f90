subroutine double_all(n, u)
  integer, intent(in) :: n
  real(8), intent(inout) :: u(n)
  integer :: i
  !$translate data copy(u)
  !$translate kernel double_k
  do i = 1, n
     u(i) = 2*u(i)
  end do
  !$translate end kernel
  print *, u(1)
  !$translate end data
end subroutine
