subroutine scale(n, a, b, c)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n), b(n)
  real(8), intent(out) :: c(n)
  integer :: i
  real(8) :: t
  !$omp parallel do
  do i = 1, n
     t = 2 * a(i)
     c(i) = t + b(i)
  end do
  !$omp end parallel do
end subroutine scale
