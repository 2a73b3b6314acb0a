program ptrcomp
  implicit none
  type view_t
    real(8), pointer :: r(:) => null()
    real(8), pointer :: c(:) => null()
  end type
  integer, parameter :: n = 8, m = 6
  real(8), target :: buf(n, m)
  type(view_t) :: v
  integer :: i, j
  do j = 1, m
    do i = 1, n
      buf(i, j) = dble(i + 10 * j)
    end do
  end do
  v%r => buf(3, :)
  v%c => buf(:, 2)
  !$translate kernel pc
  do j = 1, m
    buf(7, j) = v%r(j) * 2.0d0
  end do
  do i = 1, n
    v%c(i) = v%c(i) + 1.0d0
  end do
  !$translate end kernel
  write(*, '(4ES24.16)') buf
end program ptrcomp
