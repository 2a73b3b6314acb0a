! translate-test: translate=--directives=openmp,openacc,translate
module imp_mod
  implicit none
contains
  subroutine smooth(n, m, x, y, c)
    integer, intent(in) :: n, m
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y(n), c(n, 4)
    integer :: i, j
    !$omp parallel do private(j)
    do i = m + 1, n - m
      y(i) = sum([(x(i + j) * (m + 1 - abs(j)), j = -m, m)])
      c(i, :) = (/ (i * 2 + j, j = 1, 4) /)
      y(i) = y(i) + maxval([(x(i + j), j = -1, 1), 0.5d0, (x(i - j) * j, j = 1, 2)])
    end do
  end subroutine
end module
program imp
  use imp_mod
  integer, parameter :: n = 50
  real(8) :: x(n), y(n), c(n, 4)
  integer :: i
  do i = 1, n
    x(i) = sin(0.3d0 * i)
  end do
  y = 0; c = 0
  call smooth(n, 3, x, y, c)
  write(*, '(3ES24.16)') sum(y), y(10), sum(c)
end program
