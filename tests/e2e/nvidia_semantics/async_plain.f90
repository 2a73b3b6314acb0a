! An async region, then a plain region on the array it brings back, without a wait between
! them (the rules order work without async after all async work).  On NVIDIA the plain call's
! copy in read the host array before the async copy back had arrived (h64).
module steps
  implicit none
contains
  subroutine grow(n, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(inout) :: y(n)
    integer :: i, k
    real(8) :: v
    !$translate kernel grow async(1)
    do i = 1, n
      v = y(i)
      do k = 1, 20
        v = v * 0.999d0 + x(i) * 1d-3
      end do
      y(i) = v
    end do
    !$translate end kernel
  end subroutine

  subroutine scale(n, y)
    integer, intent(in) :: n
    real(8), intent(inout) :: y(n)
    integer :: i
    !$translate kernel scale
    do i = 1, n
      y(i) = y(i) * 3d0 - 1d0
    end do
    !$translate end kernel
  end subroutine
end module

program async_plain
  use steps
  implicit none
  integer, parameter :: n = 3000000
  real(8), allocatable :: x(:), y(:)
  integer :: i, t
  real(8) :: s
  allocate(x(n), y(n))
  do i = 1, n
    x(i) = mod(i, 17)
    y(i) = 1d0 + mod(i, 5)
  end do
  do t = 0, 2
    call grow(n - t, x, y)
    call scale(n - t, y)
    s = 0
    do i = 1, n
      s = s + y(i) * (1 + mod(i, 7))
    end do
    print '(a,i2,es25.16)', 'plain', t, s
  end do
end program
