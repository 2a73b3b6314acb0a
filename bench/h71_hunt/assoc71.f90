program assoc71
  implicit none
  integer, parameter :: n = 14
  real(8) :: a(0:n + 1), b(n), s
  integer :: i, k
  do i = 0, n + 1
    a(i) = dble(mod(i * 5, 9)) - 3.0d0
  end do
  s = 0.0d0
  !$translate kernel as
  do i = 1, n
    associate (c => a(i), l => a(i - 1), r => a(i + 1), d => a(i + 1) - a(i - 1))
      b(i) = c * 2.0d0 - 0.5d0 * (l + r) + d
    end associate
  end do
  do i = 1, n
    associate (t => b(i))
      if (t < 0.0d0) t = -t
      t = t + 1.0d0
    end associate
  end do
  !$translate end kernel
  write(*, '(4ES24.16)') b
end program assoc71
