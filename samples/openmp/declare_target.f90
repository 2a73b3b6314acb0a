! translate-test: rtol=1e-12 translate=--directives=openmp
!
! OpenMP "declare target" procedures called inside a target loop: a module function that
! calls another, and a subroutine that updates a column of the caller's array.  Each call is
! inlined into the loop's kernel, and the loop is proven parallel as if the bodies were
! written in it.  The declare target directives stay in the rewritten source for an OpenMP
! compiler.  (rtol: the device may fuse a multiply and an add into one rounding.)

module shapes
  implicit none
contains
  pure function clamp(v, lo, hi) result(w)
    !$omp declare target
    real(8), intent(in) :: v, lo, hi
    real(8) :: w
    w = min(max(v, lo), hi)
  end function

  pure function smooth(x) result(y)
    !$omp declare target
    real(8), intent(in) :: x
    real(8) :: y
    y = clamp(x * x / (1.0d0 + x * x), 0.05d0, 0.95d0)
  end function

  subroutine column_update(m, u, v, f)
    !$omp declare target
    integer, intent(in) :: m
    real(8), intent(in) :: u(m), f
    real(8), intent(out) :: v(m)
    integer :: k
    do k = 1, m
       v(k) = f * u(k) + smooth(u(k))
    end do
  end subroutine
end module

subroutine step(n, m, u, v, f)
  use shapes
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: u(m, n), f(n)
  real(8), intent(out) :: v(m, n)
  integer :: i
  !$omp target teams distribute parallel do map(to: u, f) map(from: v)
  do i = 1, n
     call column_update(m, u(:, i), v(:, i), f(i))
  end do
end subroutine

program main
  implicit none
  integer, parameter :: n = 300, m = 24
  real(8) :: u(m, n), v(m, n), f(n)
  integer :: i, k
  do i = 1, n
     do k = 1, m
        u(k, i) = sin(0.013d0 * (k + m * i)) * 2
     end do
     f(i) = 1.0d0 / i
  end do
  call step(n, m, u, v, f)
  print '(3ES24.15)', sum(v), v(1, 1), v(m, n)
end program
