! A normalisation: the norm of x (a reduction), a scalar statement on it, then a loop that
! divides by it.  In one kernel the loop would read nrm before every work group had added its
! part of the sum; as a host program it is a reduction kernel, a one-work-item kernel for
! `nrm = sqrt(s)` and a parallel scaling kernel, with s and nrm kept in device buffers.
!
! The sum is mapped explicitly (the automatic mapping keeps floating-point sums sequential
! because a parallel sum rounds differently); the data are small integers, so every order
! of the sum gives the same bits here.  The scaling loop (i_1) is mapped automatically.

subroutine normalise(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  real(8) :: s, nrm
  integer :: i

  !$translate kernel normalise
  !$translate split_iname("i", 128, outer_tag="g.0", inner_tag="l.0")
  s = 0.0d0
  do i = 1, n
     s = s + x(i) * x(i)
  end do
  nrm = sqrt(s)
  do i = 1, n
     y(i) = x(i) / nrm
  end do
  !$translate end kernel
end subroutine normalise

program main
  implicit none
  integer, parameter :: n = 2500
  real(8) :: x(n), y(n), check
  integer :: i

  do i = 1, n
     x(i) = mod(i * 37, 23) - 11
  end do
  call normalise(n, x, y)
  check = 0.0d0
  do i = 1, n
     check = check + y(i) * y(i) * (1 + mod(i, 3))
  end do
  print '(a, 2es23.15e3)', 'y(1), y(n) ', y(1), y(n)
  print '(a, es23.15e3)', 'check ', check
end program main
