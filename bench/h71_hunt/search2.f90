program search2
  implicit none
  integer, parameter :: n = 1000, m = 40
  real(8) :: a(n), t, x, g(m, m)
  integer :: i, j, k, k2, row(m)
  do i = 1, n
    a(i) = sin(dble(i) * 0.01d0)
  end do
  do j = 1, m
    do i = 1, m
      g(i, j) = dble(mod(i * 7 + j * 13, 29))
    end do
  end do
  t = 0.95d0
  k = -1
  k2 = 77
  x = 0.0d0
  !$translate kernel srch
  do i = 1, n
    if (a(i) > t) then
      k = i
      x = a(i) * 2.0d0
      exit
    end if
  end do
  do i = 1, n
    if (a(i) > 2.0d0) then
      k2 = i
      exit
    end if
  end do
  do j = 1, m
    row(j) = 0
    do i = 1, m
      if (g(i, j) > 25.0d0) then
        row(j) = i
        exit
      end if
    end do
  end do
  !$translate end kernel
  print *, k, x, k2
  print '(20I4)', row
end program search2
