! translate-test: translate=--directives=openacc rtol=1e-13
! OpenACC Fortran: kernels loop independent reduction, pcopy data, default(present) inside a
! data region, enter data create + update device, routine(f) seq by name, async data,
! parallel with a collapse(2) loop and a reduction over the construct's loop.
module amore
  implicit none
contains
  pure real(8) function f(x)
    real(8), intent(in) :: x
    f = 2.0d0 * x + 1.0d0
  end function f
end module amore

program acc_more2
  use amore
  implicit none
  !$acc routine(f) seq
  integer, parameter :: n = 36, m = 20
  real(8) :: a(n, m), b(n, m), v(n), s, t
  integer :: i, j
  do j = 1, m
    do i = 1, n
      a(i, j) = dble(mod(i + 3 * j, 8)) - 3.5d0
    end do
  end do
  s = 0
  !$acc kernels loop independent reduction(+:s)
  do i = 1, n
    s = s + a(i, 1)
  end do
  !$acc data pcopyin(a) pcopy(b)
  !$acc parallel loop collapse(2) default(present)
  do j = 1, m
    do i = 1, n
      b(i, j) = f(a(i, j))
    end do
  end do
  !$acc end data
  !$acc enter data create(v) async(3)
  do i = 1, n
    v(i) = dble(i)
  end do
  !$acc update device(v) async(3)
  !$acc wait(3)
  !$acc parallel loop present(v)
  do i = 1, n
    v(i) = v(i) * b(i, 2)
  end do
  !$acc exit data copyout(v)
  t = 0
  !$acc parallel
  !$acc loop collapse(2) reduction(+:t)
  do j = 1, m
    do i = 1, n
      t = t + b(i, j) * dble(j)
    end do
  end do
  !$acc end parallel
  print '(4ES24.16)', s, sum(b), sum(v), t
end program acc_more2
