program matmul1
  implicit none
  integer, parameter :: n = 10
  real(8) :: r(3, 3), p(3, n), q(3, n)
  integer :: i, j
  do j = 1, 3
    do i = 1, 3
      r(i, j) = dble(i + 2 * j)
    end do
  end do
  do i = 1, n
    p(:, i) = [dble(i), dble(2 * i), dble(-i)]
  end do
  !$translate kernel mm
  do i = 1, n
    q(:, i) = matmul(r, p(:, i))
  end do
  !$translate end kernel
  write(*, '(3ES24.16)') q
end program matmul1
