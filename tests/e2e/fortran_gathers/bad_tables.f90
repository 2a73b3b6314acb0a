! translate-test: translate=--directives=openmp
! Tables whose values leave the gathered array: the translated program stops at the call.
module bad_mod
  implicit none
contains
  subroutine gather(n, perm, x, y)
    integer, intent(in) :: n, perm(:)
    real(8), intent(in) :: x(-1:)
    real(8), intent(out) :: y(n)
    integer :: i
    !$omp parallel do
    do i = 1, n
      y(i) = x(perm(i))
    end do
  end subroutine gather
end module bad_mod

program bad_tables
  use bad_mod
  implicit none
  integer, parameter :: n = 100
  integer :: perm(n), i
  real(8) :: x(-1:n - 2), y(n)
  character(len=8) :: arg
  call get_command_argument(1, arg)
  do i = 1, n
    perm(i) = mod(i * 3, n) - 1
    x(i - 2) = i
  end do
  if (arg == "1") perm(7) = -2
  if (arg == "2") perm(9) = n - 1
  call gather(n, perm, x, y)
  write(*, '(2F10.1)') sum(y), y(n)
end program bad_tables
