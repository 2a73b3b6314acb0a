! translate-test: translate=--directives=openacc
!
! 2-D Jacobi relaxation of Laplace's equation, called from a time loop in the main program:
! the OpenACC version of samples/fortran/jacobi2d.f90 (translate --directives openacc).
! "parallel loop tile(16, 16)" declares both loops independent (the translator proves it) and
! asks for 16x16 tiles: the first tile size is the innermost loop's, as in OpenACC.  The
! kernel is the pragma version's.
!
! Each call of sweep runs one kernel on the device: every interior point of unew becomes the
! average of its four neighbours in u.  The two arrays swap roles from one step to the next,
! so no copy is needed.  Both loops are parallel: i (the contiguous, fastest index of a
! column-major array) goes to the local axis 0 of 16-wide work-groups, j to axis 1.

module jacobi
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains

  subroutine sweep(n, u, unew)
    integer, intent(in) :: n
    real(dp), intent(in) :: u(0:n+1, 0:n+1)
    real(dp), intent(inout) :: unew(0:n+1, 0:n+1)
    integer :: i, j

    !$acc parallel loop tile(16, 16) present_or_copyin(u) present_or_copy(unew)
    do j = 1, n
       do i = 1, n
          unew(i, j) = 0.25_dp * (u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1))
       end do
    end do
  end subroutine sweep

end module jacobi

program main
  use jacobi
  implicit none
  integer, parameter :: n = 64, steps = 50
  real(dp) :: a(0:n+1, 0:n+1), b(0:n+1, 0:n+1)
  integer :: step, i

  ! fixed boundary: hot top edge, cold elsewhere; interior starts at zero
  a = 0.0_dp
  do i = 0, n + 1
     a(i, n + 1) = 1.0_dp + real(i, dp) / (n + 1)
  end do
  b = a

  do step = 1, steps, 2
     call sweep(n, a, b)
     call sweep(n, b, a)
  end do

  print '(a, 1x, es23.15e3)', 'checksum = ', sum(a)
  print '(a, 3(1x, es23.15e3))', 'a(1,n), a(n/2,n/2), a(n,1) = ', a(1, n), a(n/2, n/2), a(n, 1)
end program main
