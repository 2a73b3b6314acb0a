module solvers
  implicit none
contains
  ! per-point Newton iterations that EXIT on convergence (the point loop is parallel)
  subroutine roots(n, c, x, iters)
    integer, intent(in) :: n
    real(8), intent(in) :: c(n)
    real(8), intent(out) :: x(n)
    integer, intent(out) :: iters(n)
    integer :: i, it
    real(8) :: f, df, dx
    !$translate kernel newton
    do i = 1, n
      x(i) = 1.0d0 + c(i)
      iters(i) = 0
      do it = 1, 50
        f = x(i)**3 - c(i)
        df = 3.0d0 * x(i)**2
        dx = f / df
        x(i) = x(i) - dx
        iters(i) = iters(i) + 1
        if (abs(dx) < 1.0d-12 * abs(x(i))) exit
      end do
    end do
    !$translate end kernel
  end subroutine
  ! a running sum that stops at a threshold: the loop itself must stay sequential
  subroutine prefix(n, a, s, upto, t)
    integer, intent(in) :: n
    real(8), intent(in) :: a(n), t
    real(8), intent(out) :: s(n)
    integer, intent(out) :: upto
    integer :: i
    real(8) :: acc
    !$translate kernel pre
    acc = 0.0d0
    upto = 0
    do i = 1, n
      s(i) = 0.0d0
    end do
    do i = 1, n
      if (acc + a(i) > t) exit
      acc = acc + a(i)
      s(i) = acc
      upto = upto + 1
    end do
    !$translate end kernel
  end subroutine
  ! a named EXIT of the row loop from the column loop, per block of rows
  subroutine firstneg(n, m, a, cnt)
    integer, intent(in) :: n, m
    real(8), intent(in) :: a(n, m)
    integer, intent(out) :: cnt(m)
    integer :: i, j
    !$translate kernel fneg
    do j = 1, m
      cnt(j) = 0
      rows: do i = 1, n
        if (a(i, j) < 0.0d0) then
          cnt(j) = cnt(j) + 100
          exit rows
        end if
        cnt(j) = cnt(j) + 1
      end do rows
    end do
    !$translate end kernel
  end subroutine
end module solvers
program exit78
  use solvers
  implicit none
  integer, parameter :: n = 29, m = 7
  real(8) :: c(n), x(n), s(n), a(n, m)
  integer :: iters(n), upto, cnt(m), i, j
  do i = 1, n
    c(i) = dble(i) * 0.7d0 - 3.0d0
  end do
  call roots(n, c, x, iters)
  write(*, '(4ES24.16)') x
  write(*, '(10I4)') iters
  call prefix(n, abs(c), s, upto, 20.0d0)
  write(*, '(4ES24.16)') s
  write(*, *) upto
  do j = 1, m
    do i = 1, n
      a(i, j) = dble(mod(i * j + 3, 17)) - dble(j)
    end do
  end do
  call firstneg(n, m, a, cnt)
  write(*, '(7I6)') cnt
end program exit78
