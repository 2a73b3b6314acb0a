program ptr3
  implicit none
  integer, parameter :: n = 6, m = 5
  real(8), target :: flat(n * m), a(0:n-1)
  real(8), pointer, contiguous :: p2(:, :), q(:)
  real(8) :: s(m)
  integer :: i, j
  do i = 1, n * m
    flat(i) = dble(i) * 0.5d0
  end do
  do i = 0, n - 1
    a(i) = dble(10 * i)
  end do
  p2(1:n, 1:m) => flat
  q(0:) => a
  !$translate kernel p3
  do j = 1, m
    s(j) = 0.0d0
    do i = 1, n
      s(j) = s(j) + p2(i, j) * q(i - 1)
    end do
  end do
  !$translate end kernel
  write(*, '(4ES24.16)') s
end program ptr3
