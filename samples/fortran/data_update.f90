! An update in the middle of a data region, read by host code; and host changes sent back.
!
! Every 10 steps the host needs the field: `update host(u)` brings it back, the host prints a
! checksum and pins the source cell, and `update device(u)` sends the change to the device.
! The region inside the loop finds `u` and `unew` present and moves nothing.

program data_update
  implicit none
  integer, parameter :: n = 2000, nsteps = 40
  real(8) :: u(n), unew(n)
  integer :: t, i
  do i = 1, n
    u(i) = real(mod(i * 7, 13), 8)
  end do
  unew = 0.0d0
  !$translate data copy(u) copyin(unew)
  do t = 1, nsteps
    !$translate kernel smooth
    do i = 2, n - 1
      unew(i) = (u(i - 1) + u(i) + u(i + 1)) / 3.0d0
    end do
    !$translate end kernel
    !$translate kernel store
    do i = 2, n - 1
      u(i) = unew(i)
    end do
    !$translate end kernel
    if (mod(t, 10) == 0) then
      !$translate update host(u)
      print '(a, i4, es24.16)', 'step', t, sum(u)
      u(n / 2) = 5.0d0
      !$translate update device(u(n/2:n/2))
    end if
  end do
  !$translate end data
  print '(a, es24.16)', 'final', sum(u)
end program data_update
