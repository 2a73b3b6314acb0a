program search1
  implicit none
  integer, parameter :: n = 1000
  real(8) :: a(n), t
  integer :: i, k
  do i = 1, n
    a(i) = sin(dble(i) * 0.01d0)
  end do
  t = 0.95d0
  !$translate kernel srch
  k = n + 1
  do i = 1, n
    if (a(i) > t) k = min(k, i)
  end do
  !$translate end kernel
  print *, k
end program search1
