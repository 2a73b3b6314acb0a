! translate-test: translate=--directives=openmp,openacc,translate
module keep
contains
  subroutine pick(x, y, store)
    real(8) :: x, y
    logical, intent(in) :: store
    if (store) y = x
  end subroutine
end module
program dirfe1
  use keep
  implicit none
  integer, parameter :: n = 16
  real(8) :: a(n), b(n), c(n), d(n)
  integer :: i
  do i = 1, n
    a(i) = dble(i) * 0.25d0
  end do
  !$omp parallel do
  do i = 1, n
    b(i) = a(i) * 2.0d0
    call pick(b(i), 2.0d0, .false.)
  end do
  !$omp end parallel do
  !$omp parallel do
  do i = 1, n
    c(i) = a(i) + b(i)
  end do
  !$acc parallel loop
  do i = 1, n
    d(i) = c(i) * c(i)
    call pick(d(i), 1.0d0 + a(i), .false.)
  end do
  !$acc parallel loop
  do i = 1, n
    d(i) = d(i) - a(i)
  end do
  write(*, '(4ES24.16)') b, c, d
end program dirfe1
