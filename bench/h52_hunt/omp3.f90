! translate-test: translate=--directives=openmp
subroutine bad(n, a)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n)
  integer :: i
  !$omp parallel do
  do i = 2, n
     a(i) = a(i - 1) + 1
  end do
end subroutine
program main
  implicit none
  real(8) :: a(100)
  a = 1
  call bad(100, a)
  print *, sum(a)
end program
