! translate-test: translate=--directives=openmp,translate
module kern
  implicit none
contains
  pure real(8) function scaled(v, f)
    real(8), intent(in) :: v
    real(8), intent(in), optional :: f
    if (present(f)) then
      scaled = v * f
    else
      scaled = v
    end if
  end function
  subroutine axpy(n, a, x, y, w, shift)
    integer, intent(in) :: n
    real(8), intent(in) :: a, x(:)
    real(8), intent(inout) :: y(:)
    real(8), intent(in), optional :: w(:)
    real(8), intent(in), optional :: shift
    integer :: i
    !$omp parallel do
    do i = 1, n
      if (present(w)) then
        y(i) = y(i) + a * x(i) * w(i)
      else
        y(i) = y(i) + a * x(i)
      end if
    end do
    !$translate kernel sh
    do i = 1, n
      y(i) = scaled(y(i), 0.5d0)
      if (present(shift)) y(i) = y(i) + shift
    end do
    !$translate end kernel
  end subroutine
end module kern
program opt2
  use kern
  implicit none
  integer, parameter :: n = 17
  real(8) :: x(n), y(n), w(n)
  integer :: i
  do i = 1, n
    x(i) = dble(i) * 0.5d0
    y(i) = 1.0d0 / dble(i)
    w(i) = dble(mod(i, 3))
  end do
  call axpy(n, 2.0d0, x, y)
  write(*, '(4ES24.16)') y
  call axpy(n, 3.0d0, x, y, w)
  write(*, '(4ES24.16)') y
  call axpy(n, 3.0d0, x, y, w, 0.25d0)
  write(*, '(4ES24.16)') y
  call axpy(n, 1.0d0, x, y, shift=-1.0d0)
  write(*, '(4ES24.16)') y
end program opt2
