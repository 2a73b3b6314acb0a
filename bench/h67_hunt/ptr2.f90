program ptr2
  implicit none
  integer, parameter :: n = 8, m = 6
  real(8), target :: buf(n, m)
  real(8), pointer :: row(:), col(:)
  real(8) :: out(m)
  integer :: i, j
  do j = 1, m
    do i = 1, n
      buf(i, j) = dble(i + 10 * j)
    end do
  end do
  row => buf(3, :)
  col => buf(:, 2)
  !$translate kernel pr
  do j = 1, m
    out(j) = row(j) * 2.0d0
  end do
  do i = 1, n
    col(i) = col(i) + 1.0d0
  end do
  !$translate end kernel
  call addr(m, buf(5, :))
  write(*, '(4ES24.16)') out, buf
contains
  subroutine addr(m, r)
    integer, intent(in) :: m
    real(8), intent(inout) :: r(:)
    integer :: j
    !$translate kernel ad
    do j = 1, m
      r(j) = r(j) * 10.0d0
    end do
    !$translate end kernel
  end subroutine
end program ptr2
