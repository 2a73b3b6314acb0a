! translate-test: translate=--directives=openacc
! Host reads after an update of part of an array, in an OpenACC data region.
program stale_partial
  implicit none
  integer, parameter :: n = 100
  real(8) :: y(n), s, t, u
  integer :: i
  do i = 1, n
    y(i) = dble(i)
  end do
  s = 0
  u = 0
  !$acc data copy(y)
  !$acc parallel loop
  do i = 1, n
    y(i) = y(i) * 2 + 1
  end do
  !$acc update host(y(1:n/2))
  do i = 1, n / 2
    s = s + y(i)
  end do
  t = y(1) + y(n / 2)
  do i = 1, n
    u = u + y(i)
  end do
  !$acc end data
  print '(3ES24.16)', s, t, u
end program stale_partial
