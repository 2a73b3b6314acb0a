! Small arrays of plain calls from Fortran (h49, issue 23 item 5): the runtime packs the arrays
! of at most 16 KiB a call copies into one write and reads the written ones back in one read.
! Inputs changed between calls, an output written only at odd indices (the others must keep
! their values), sizes changing from call to call (also past the 16 KiB limit), a call inside
! a data region where y is present.
module small_ops
  implicit none
contains
  subroutine axpy(n, a, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: a, x(n)
    real(8), intent(inout) :: y(n)
    integer :: i
    !$translate kernel axpy
    do i = 1, n
      y(i) = a * x(i) + y(i)
    end do
    !$translate end kernel
  end subroutine

  subroutine odds(n, y, z)
    integer, intent(in) :: n
    real(8), intent(inout) :: y(2 * n)
    real(8), intent(out) :: z(n)
    integer :: i
    !$translate kernel odds
    do i = 1, n
      y(2 * i - 1) = 3.0d0 * y(2 * i - 1) + 1.0d0
      z(i) = 0.5d0 * i
    end do
    !$translate end kernel
  end subroutine
end module

program small
  use small_ops
  implicit none
  integer, parameter :: nmax = 4200
  integer, parameter :: sizes(7) = [16, 100, 3, 2048, 2049, 16, 2000]
  real(8) :: x(nmax), y(nmax), z(nmax)
  integer :: i, k, n
  do i = 1, nmax
    x(i) = 0.25d0 * i - 3.0d0
    y(i) = 1.0d0 + mod(i, 5)
    z(i) = -1.0d0
  end do
  do k = 1, 3
    x(k) = x(k) + 10.0d0
    call axpy(16, 1.5d0, x, y)
    call show('axpy', 16, y)
  end do
  do k = 1, size(sizes)
    n = sizes(k)
    call axpy(n, -0.5d0, x, y)
    call show('axpy n', n, y)
    call odds(n / 2, y, z)
    call show('odds y', n, y)
    call show('odds z', n / 2, z)
  end do
  !$translate data copy(y)
  do k = 1, 3
    call axpy(100, 2.0d0, x, y)
    call odds(50, y, z)
  end do
  !$translate end data
  call show('data y', 100, y)
  call show('data z', 50, z)
contains
  subroutine show(what, n, v)
    character(*), intent(in) :: what
    integer, intent(in) :: n
    real(8), intent(in) :: v(:)
    real(8) :: s
    integer :: i
    s = 0.0d0
    do i = 1, n
      s = s + v(i) * (1 + mod(i, 7))
    end do
    write (*, '(a, i6, 3es25.16)') what, n, s, v(1), v(max(n, 1))
  end subroutine
end program
