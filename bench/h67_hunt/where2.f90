program where2
  implicit none
  integer, parameter :: n = 16, m = 3
  real(8) :: a(n, m), b(n, m), r(n)
  logical :: msk(n)
  integer :: i, j
  do j = 1, m
    do i = 1, n
      a(i, j) = cos(dble(i * 3 + j))
      b(i, j) = 1.0d0
    end do
  end do
  do i = 1, n
    msk(i) = mod(i, 3) == 0
  end do
  r = 0.0d0
  !$translate kernel w2
  do j = 1, m
    where (msk) b(:, j) = a(:, j) * 4.0d0
    where (a(:, j) > 0.3d0 .and. .not. msk)
      b(:, j) = b(:, j) + 1.0d0
      r = r + a(:, j)
    end where
  end do
  !$translate end kernel
  write(*, '(4ES24.16)') b, r
end program where2
