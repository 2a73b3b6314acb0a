module m
  implicit none
  type pt
     real(8) :: x(100), y(100)
  end type
contains
  subroutine sect(n, a, b, c)
    integer, intent(in) :: n
    real(8), intent(inout) :: a(n), b(n), c(n)
    !$translate kernel sect_k
    a(2:n) = b(1:n-1) + 1
    b(:) = b(:) * 2 + c(:)
    where (b > 100d0)
       c = c - 1
    elsewhere
       c = -c
    end where
    !$translate end kernel
  end subroutine
  subroutine intr(n, a, ia, r, ir)
    integer, intent(in) :: n
    real(8), intent(in) :: a(n)
    integer, intent(in) :: ia(n)
    real(8), intent(out) :: r(n, 6)
    integer, intent(out) :: ir(n, 6)
    integer :: i
    !$translate kernel intr_k
    do i = 1, n
       r(i, 1) = sign(a(i), dble(ia(i)))
       r(i, 2) = merge(a(i), -a(i), ia(i) > 0)
       r(i, 3) = mod(a(i), 0.7d0)
       r(i, 4) = modulo(a(i), 0.7d0)
       r(i, 5) = a(i) ** 3
       r(i, 6) = aint(a(i)) + anint(a(i))
       ir(i, 1) = mod(ia(i), 7)
       ir(i, 2) = modulo(ia(i), 7)
       ir(i, 3) = ia(i) / 4
       ir(i, 4) = nint(a(i))
       ir(i, 5) = int(a(i))
       ir(i, 6) = ia(i) ** 2 + 2 ** mod(i, 5) + ishft(ia(i), -2) + ibits(i, 1, 3)
    end do
    !$translate end kernel
  end subroutine
  subroutine dt(n, p)
    integer, intent(in) :: n
    type(pt), intent(inout) :: p
    integer :: i
    !$translate kernel dt_k
    do i = 1, n
       p%y(i) = p%x(i) * 2 + p%y(i)
    end do
    !$translate end kernel
  end subroutine
  subroutine lb(a, s)
    real(8), intent(inout) :: a(-3:)
    real(8), intent(out) :: s
    integer :: i
    s = 0
    !$translate kernel lb_k
    do i = lbound(a, 1), ubound(a, 1)
       a(i) = a(i) + i
    end do
    !$translate end kernel
    s = sum(a)
  end subroutine
  subroutine mixk(n, a, b)
    integer, intent(in) :: n
    real(4), intent(inout) :: a(n)
    real(8), intent(in) :: b(n)
    integer :: i
    !$translate kernel mixk_k
    do i = 1, n
       a(i) = a(i) * 1.1 + b(i) * 0.1d0 + 0.1
    end do
    !$translate end kernel
  end subroutine
  subroutine redi(n, a, s, mx, d)
    integer, intent(in) :: n
    real(8), intent(in) :: a(n)
    real(8), intent(out) :: s, mx, d
    !$translate kernel redi_k
    s = sum(a(1:n))
    mx = maxval(a(1:n))
    d = dot_product(a(1:n), a(1:n))
    !$translate end kernel
  end subroutine
end module

program main
  use m
  implicit none
  integer, parameter :: n = 100
  real(8) :: a(n), b(n), c(n), r(n, 6), s, mx, d, e(0:n-4)
  real(4) :: f(n)
  integer :: ia(n), ir(n, 6), i
  type(pt) :: p
  do i = 1, n
     a(i) = 3.3d0 * sin(0.7d0 * i) ; b(i) = i; c(i) = cos(0.3d0*i)
     ia(i) = mod(i * 37, 41) - 20
     p%x(i) = i; p%y(i) = -i
     f(i) = i * 0.25
  end do
  call sect(n, a, b, c)
  print '(3es24.16)', sum(a), sum(b), sum(c)
  call intr(n, a, ia, r, ir)
  print '(6es24.16)', sum(r(:, 1)), sum(r(:, 2)), sum(r(:, 3)), sum(r(:, 4)), sum(r(:, 5)), sum(r(:, 6))
  print '(6i10)', sum(ir(:, 1)), sum(ir(:, 2)), sum(ir(:, 3)), sum(ir(:, 4)), sum(ir(:, 5)), sum(ir(:, 6))
  call dt(n, p)
  print '(es24.16)', sum(p%y)
  e = a(1:n-3)
  call lb(e, s)
  print '(es24.16)', s
  call mixk(n, f, b)
  print '(es24.16)', sum(f)
  call redi(n, a, s, mx, d)
  print '(3es24.16)', s, mx, d
end program
