program forall1
  implicit none
  integer, parameter :: n = 20
  real(8) :: a(n, n), b(n, n), d(n)
  integer :: i, j
  do j = 1, n
    do i = 1, n
      a(i, j) = dble(i - j)
    end do
  end do
  !$translate kernel fa
  forall (i = 1:n, j = 1:n, i /= j) b(i, j) = a(j, i) * 2.0d0
  forall (i = 1:n) b(i, i) = 1.0d0
  !$translate end kernel
  !$translate kernel fa2
  forall (i = 2:n) d(i) = a(i - 1, i)
  d(1) = 0.0d0
  !$translate end kernel
  write(*, '(5ES24.16)') b, d
end program forall1
