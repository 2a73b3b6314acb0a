subroutine shift(n, a, s)
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n), s(2, n, 2)
  integer :: k
  !$translate kernel shift_k
  do k = 1, n
     s(:, k, 2) = s(:, k, 1) * 50
  end do
  a(2:n) = a(1:n-1)
  !$translate end kernel
end subroutine
