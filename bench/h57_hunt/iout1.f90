! translate-test: translate=--directives=openmp
subroutine interior(n, a, b)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n)
  real(8), intent(out) :: b(n)
  integer :: i
  !$omp parallel do
  do i = 2, n - 1
    b(i) = a(i - 1) + a(i + 1)
  end do
end subroutine interior

program iout1
  implicit none
  integer, parameter :: n = 50
  real(8) :: a(n), b(n)
  integer :: i
  do i = 1, n
    a(i) = i
  end do
  b = -7
  call interior(n, a, b)
  print '(3es24.16)', b(1), b(n), sum(b)
end program iout1
