! translate-test: translate=--directives=openacc
!
! A host time loop calling a procedure with two regions, inside one data region: the OpenACC
! version of samples/fortran/data_timeloop.f90 (translate --directives openacc).  Each
! "parallel loop" is a region whose loop is proven independent; "!$acc data" is the data
! region, "!$acc update self(u)" copies u back to the host while the data region goes on.
!
! `step` holds two kernel regions (a Jacobi sweep into `tmp`, then the copy back into `u`).
! The main program's data region makes `u` and `tmp` present for the whole loop (`tmp` is copied
! in: the sweep never writes its boundary cells, and `translate check` compares every element):
! the regions find them on the device and nothing moves per step; `u` is copied in once and out
! once.

module jacobi_steps
  implicit none
contains
  subroutine step(n, u, tmp)
    integer, intent(in) :: n
    real(8), intent(inout) :: u(0:n + 1), tmp(0:n + 1)
    integer :: i
    !$acc parallel loop present(u, tmp)
    do i = 1, n
      tmp(i) = 0.25d0 * u(i - 1) + 0.5d0 * u(i) + 0.25d0 * u(i + 1)
    end do
    !$acc end parallel loop
    !$acc parallel loop present(u, tmp)
    do i = 1, n
      u(i) = tmp(i)
    end do
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
  !$acc data copy(u) copyin(tmp)
  do t = 1, nsteps
    call step(n, u, tmp)
    if (t == nsteps / 2) then
      !$acc update self(u)
      print '(a, es24.16)', 'half-way sum ', sum(u)
    end if
  end do
  !$acc end data
  do i = n / 2 - 3, n / 2 + 3
    print '(i6, es24.16)', i, u(i)
  end do
  print '(a, es24.16)', 'sum ', sum(u)
end program data_timeloop
