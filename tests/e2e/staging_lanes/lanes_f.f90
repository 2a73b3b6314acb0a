! Staged copies of several arrays of one data directive in Fortran (see lanes.c): kinds of 1,
! 4 and 8 bytes, sizes that are not multiples of 4 KiB or of 64 bytes, copies in both
! directions at entry, exit and in updates.
program lanes_f
  implicit none
  integer, parameter :: n = 12347
  real(8) :: a(n), d(n)
  real(4) :: b(n)
  integer(1) :: e(n)
  integer :: i
  do i = 1, n
     a(i) = 0.25d0*mod(i, 1013) - 3d0
     d(i) = 1d0/(1 + mod(i, 17))
     b(i) = 0.5*mod(i, 29)
  end do
  e = 0
  !$translate data copyin(a, b) copy(d) copyout(e)
  !$translate kernel mix_f
  do i = 1, n
     d(i) = d(i) + 2d0*a(i) + b(i)
     e(i) = int(mod(i, 101) - 50, 1)
  end do
  !$translate end kernel
  b = -b
  !$translate update device(b)
  !$translate update host(d)
  write(*, '(a, es25.16)') 'inside ', sum(d*[(1 + mod(i, 7), i = 1, n)])
  !$translate kernel again_f
  do i = 1, n
     d(i) = 0.5d0*d(i) + b(i) + e(i)
  end do
  !$translate end kernel
  !$translate end data
  write(*, '(a, es25.16, i12)') 'after ', sum(d*[(1 + mod(i, 7), i = 1, n)]), &
       sum(int(e, 4)*[(1 + mod(i, 5), i = 1, n)])
  write(*, '(a, es25.16)') 'last ', d(n)
end program lanes_f
