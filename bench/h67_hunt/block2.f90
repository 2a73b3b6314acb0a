program block2
  implicit none
  integer, parameter :: n = 12
  real(8) :: t(n), v(n)
  integer :: i
  t = 1.0d0
  block
    real(8) :: t(2 * n)
    do i = 1, 2 * n
      t(i) = dble(i)
    end do
    !$translate kernel bl2
    do i = 1, n
      v(i) = t(i + n) * 2.0d0
    end do
    !$translate end kernel
  end block
  write(*, '(4ES24.16)') v, t
end program block2
