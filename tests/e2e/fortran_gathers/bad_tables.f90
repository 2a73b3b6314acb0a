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

  subroutine elements(ne, conn, u, ue)
    integer, intent(in) :: ne, conn(:, :)
    real(8), intent(in) :: u(:)
    real(8), intent(out) :: ue(:)
    integer :: e
    !$omp parallel do
    do e = 1, ne
      ue(e) = 0.5d0 * (u(conn(1, e)) + u(conn(2, e)))
    end do
  end subroutine elements
end module bad_mod

program bad_tables
  use bad_mod
  implicit none
  integer, parameter :: n = 100
  integer :: perm(n), i
  real(8) :: x(-1:n - 2), y(n)
  integer, allocatable :: conn(:, :)
  character(len=8) :: arg
  call get_command_argument(1, arg)
  do i = 1, n
    perm(i) = mod(i * 3, n) - 1
    x(i - 2) = i
  end do
  if (arg == "1") perm(7) = -2
  if (arg == "2") perm(9) = n - 1
  if (arg == "3") then    ! a part of a mesh with no elements: an empty table is no error
    allocate(conn(2, 0))
    call elements(0, conn, x, y)
  end if
  call gather(n, perm, x, y)
  write(*, '(2F10.1)') sum(y), y(n)
end program bad_tables
