program arrf71
  implicit none
  integer, parameter :: n = 10, m = 6
  real(8) :: a(m, n), p(n), q(n), nm(n), mx(n)
  integer :: loc(n), i, j, k
  do i = 1, n
    a(:, i) = [(dble(mod(i * 7 + k * 3, 11)) * 0.5d0 - 1.0d0, k = 1, m)]
  end do
  !$translate kernel af
  do i = 1, n
    p(i) = product(a(:, i))
    q(i) = product(a(2:4, i) + 1.0d0)
    nm(i) = sqrt(sum(a(:, i)**2))
    mx(i) = maxval(a(:, i)) - minval(a(:, i))
  end do
  !$translate end kernel
  !$translate kernel loc
  do i = 1, n
    k = 1
    do j = 2, m
      if (a(j, i) > a(k, i)) k = j
    end do
    loc(i) = k
  end do
  !$translate end kernel
  write(*, '(4ES24.16)') p, q, nm, mx
  write(*, '(10I4)') loc
end program arrf71
