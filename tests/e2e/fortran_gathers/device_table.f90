! translate-test: translate=--directives=openacc
! A table written on the device inside a data region, then gathered through: the host copy
! of perm is never written, so the scans must read the device's.
program device_table
  implicit none
  integer, parameter :: n = 64
  integer :: perm(n), i
  real(8) :: a(n), b(n)
  perm = 0
  do i = 1, n
    a(i) = i
  end do
  !$acc data create(perm) copyin(a) copyout(b)
  !$acc parallel loop
  do i = 1, n
    perm(i) = n + 1 - i
  end do
  !$acc parallel loop
  do i = 1, n
    b(i) = 2.0d0 * a(perm(i))
  end do
  !$acc end data
  write(*, '(3F10.1)') b(1), b(n), sum(b)
end program device_table
