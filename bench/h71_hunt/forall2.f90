program forall2
  implicit none
  integer, parameter :: n = 12
  real(8) :: a(n, n), b(n, n), c(n), d(n)
  integer :: i, j, k
  i = -5
  b = 0.0d0
  forall (k = 1:n, c(k) > 0.0d0) c(k) = -c(k) * 0.5d0
  do k = 1, n
    c(k) = dble(k) - 6.5d0
    do j = 1, n
      a(j, k) = dble(mod(j * 3 + k * 7, 11)) - 5.0d0
    end do
  end do
  !$translate kernel fa
  forall (i = 1:n, j = 1:n:2, a(i, j) > 0.0d0) b(i, j) = a(j, i) * 2.0d0
  forall (i = 1:n, j = 2:n:2) b(i, j) = -1.0d0
  forall (k = 1:n)
    c(k) = c(k) * 2.0d0
    d(n + 1 - k) = c(k) + b(k, k)
  end forall
  do k = 1, n
    forall (j = k:n) a(j, k) = a(j, k) + c(j) * dble(k)
  end do
  forall (k = n:1:-3) d(k) = 0.0d0
  forall (k = 1:n, d(k) < 0.0d0) d(k) = -d(k)
  !$translate end kernel
  write(*, '(4ES24.16)') b, c, d, a(:, 5)
  print *, i
end program forall2
