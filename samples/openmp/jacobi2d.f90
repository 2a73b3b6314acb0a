! translate-test: translate=--directives=openmp
!
! Jacobi sweep with OpenMP: collapse(2) declares both loops parallel; the translator proves it
! and maps them as it maps samples/fortran/jacobi2d.f90 without its mapping pragmas.

module jacobi
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains

  subroutine sweep(n, u, unew)
    integer, intent(in) :: n
    real(dp), intent(in) :: u(0:n+1, 0:n+1)
    real(dp), intent(inout) :: unew(0:n+1, 0:n+1)
    integer :: i, j

    !$omp parallel do collapse(2)
    do j = 1, n
       do i = 1, n
          unew(i, j) = 0.25_dp * (u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1))
       end do
    end do
    !$omp end parallel do
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
