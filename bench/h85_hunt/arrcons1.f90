! translate-test: translate=--directives=openmp,openacc,translate
! Array constructors in regions as real code writes them: a 3-point stencil's weights as a
! table, a per-point window w = [..] in a private BLOCK array, short reductions
! sum([a(i), b(i)]), maxval/minval/any of constructors, (/ ... /) and [real(dp) :: ...].
module cons_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  subroutine filters(n, x, y, z, flags)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(n)
    real(dp), intent(out) :: y(n), z(n)
    integer, intent(out) :: flags(n)
    real(dp) :: c(3)
    integer :: i
    !$translate kernel filt
    c = [0.25_dp, 0.5_dp, 0.25_dp]
    do i = 2, n - 1
      block
        real(dp) :: w(3)
        w = (/ x(i - 1), x(i), x(i + 1) /)
        y(i) = sum(c * w)
        z(i) = maxval([w(1), w(3)]) - minval([x(i - 1), x(i), x(i + 1)])
        flags(i) = merge(1, 0, any([w(1) > w(2), w(3) > w(2)]))
      end block
    end do
    !$translate end kernel
  end subroutine filters

  subroutine mix(n, a, b, s)
    integer, intent(in) :: n
    real(dp), intent(in) :: a(n), b(n)
    real(dp), intent(out) :: s(n)
    integer :: i
    !$omp target teams distribute parallel do
    do i = 1, n - 1
      s(i) = sum([a(i), b(i), 1.0_dp]) + product([real(dp) :: 2, i, a(i)]) &
             + dot_product([a(i), 2.0_dp], b(i:i + 1))
    end do
  end subroutine mix
end module cons_mod

program arrcons1
  use cons_mod
  implicit none
  integer, parameter :: n = 30
  real(dp) :: x(n), y(n), z(n), s(n)
  integer :: flags(n), i
  do i = 1, n
    x(i) = sin(0.7_dp * i) + 0.1_dp * i
  end do
  y = 0
  z = 0
  flags = -1
  s = 0
  call filters(n, x, y, z, flags)
  call mix(n, x, y, s)
  write(*, '(4ES24.16)') y, z, s
  write(*, '(15I3)') flags
end program arrcons1
