! translate-test: translate=--directives=openmp
!
! A time loop under an OpenMP target data region: u and tmp stay on the device for all steps,
! and the two parallel loops of each step find them there (as samples/fortran/data_timeloop.f90).

module jacobi_steps
  implicit none
contains
  subroutine step(n, u, tmp)
    integer, intent(in) :: n
    real(8), intent(inout) :: u(0:n + 1), tmp(0:n + 1)
    integer :: i
    !$omp parallel do
    do i = 1, n
      tmp(i) = 0.25d0 * u(i - 1) + 0.5d0 * u(i) + 0.25d0 * u(i + 1)
    end do
    !$omp end parallel do
    !$omp parallel do
    do i = 1, n
      u(i) = tmp(i)
    end do
    !$omp end parallel do
  end subroutine step
end module jacobi_steps

program data_timeloop
  use jacobi_steps
  implicit none
  integer, parameter :: n = 4000, nsteps = 50
  real(8) :: u(0:n + 1), tmp(0:n + 1)
  integer :: t, i
  do i = 0, n + 1
    u(i) = 0.0d0
  end do
  u(n / 2) = 1000.0d0
  u(n + 1) = 1.0d0
  tmp = 0.0d0
  !$omp target data map(tofrom: u) map(to: tmp)
  do t = 1, nsteps
    call step(n, u, tmp)
  end do
  !$omp end target data
  do i = n / 2 - 3, n / 2 + 3
    print '(i6, es24.16)', i, u(i)
  end do
  print '(a, es24.16)', 'sum ', sum(u)
end program data_timeloop
