program main
  use ops
  use iso_c_binding
  implicit none
  interface
    subroutine c_axpy(n, a, x, y) bind(C, name="c_axpy")
      import :: c_int, c_double
      integer(c_int), value :: n
      real(c_double), value :: a
      real(c_double) :: x(*), y(*)
    end subroutine
    subroutine report(v) bind(C, name="report")
      import :: c_double
      real(c_double), value :: v
    end subroutine
  end interface
  integer, parameter :: n = 1000
  real(8) :: x(n), y(n)
  integer :: i
  do i = 1, n
    x(i) = i * 0.5d0
    y(i) = 1.0d0
  end do
  call scale(n, 2.0d0, x)
  call c_axpy(n, 3.0d0, x, y)
  call report(sum(y))
end program main
