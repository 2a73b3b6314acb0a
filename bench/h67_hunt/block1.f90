program block1
  implicit none
  integer, parameter :: n = 50
  real(8) :: a(n), b(n)
  integer :: i
  do i = 1, n
    a(i) = dble(i) * 0.1d0
  end do
  !$translate kernel bk
  do i = 1, n
    block
      real(8) :: t, q
      t = a(i) * a(i)
      q = t + 1.0d0
      b(i) = q / (t + 2.0d0)
    end block
  end do
  !$translate end kernel
  write(*, '(4ES24.16)') b
end program block1
