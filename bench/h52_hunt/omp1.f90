! translate-test: translate=--directives=openmp
subroutine reds(n, x, s, p, mx, mn, la, lo, ia)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: s, p, mx, mn
  logical, intent(out) :: la, lo
  integer, intent(out) :: ia
  integer :: i
  s = 0; p = 1; mx = -1d30; mn = 1d30; la = .true.; lo = .false.; ia = -1
  !$omp parallel do reduction(+:s) reduction(*:p) reduction(max:mx) reduction(min:mn) &
  !$omp& reduction(iand:ia)
  do i = 1, n
     s = s + x(i)
     p = p * (1d0 + x(i)*1d-3)
     mx = max(mx, x(i))
     mn = min(mn, x(i))
     ia = iand(ia, 255 - mod(i, 7))
  end do
end subroutine

subroutine lastp(n, x, y, t, k)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n), t
  integer, intent(out) :: k
  integer :: i
  !$omp parallel do lastprivate(t, k)
  do i = 1, n
     t = x(i) * 2
     k = i * 3 - 1
     y(i) = t + k
  end do
end subroutine

subroutine firstp(n, x, y, c)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  real(8), intent(inout) :: c
  integer :: i
  !$omp parallel do firstprivate(c)
  do i = 1, n
     y(i) = x(i) * c
  end do
end subroutine

subroutine tri(n, a)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n, n)
  integer :: i, j
  !$omp parallel do collapse(2)
  do j = 1, n
     do i = j, n
        a(i, j) = a(i, j) * 2 + i - j
     end do
  end do
end subroutine

subroutine twoloops(n, x, y, z)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n), z(n)
  integer :: i
  !$omp parallel
  !$omp do
  do i = 1, n
     y(i) = x(i) + 1
  end do
  !$omp end do
  !$omp do
  do i = 2, n - 1
     z(i) = y(i-1) + y(i+1)
  end do
  !$omp end do
  !$omp end parallel
  z(1) = 0; z(n) = 0
end subroutine

program main
  implicit none
  integer, parameter :: n = 1000
  real(8) :: x(n), y(n), z(n), s, p, mx, mn, t, c, a(40, 40)
  logical :: la, lo
  integer :: i, j, ia, k
  do i = 1, n
     x(i) = sin(0.37d0*i)
  end do
  call reds(n, x, s, p, mx, mn, la, lo, ia)
  print '(4es24.16, 2l2, i6)', s, p, mx, mn, la, lo, ia
  call lastp(n, x, y, t, k)
  print '(2es24.16, i8)', t, sum(y), k
  c = 0.5d0
  call firstp(n, x, y, c)
  print '(2es24.16)', c, y(n)
  do j = 1, 40
     do i = 1, 40
        a(i, j) = i*0.5d0 - j
     end do
  end do
  call tri(40, a)
  print '(es24.16)', sum(a)
  call twoloops(n, x, y, z)
  print '(2es24.16)', sum(y), sum(z)
end program
