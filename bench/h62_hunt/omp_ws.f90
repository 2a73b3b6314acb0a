! translate-test: translate=--directives=openmp rtol=1e-13
module kern
  implicit none
contains
  subroutine relax(n, u, f, r)
    integer, intent(in) :: n
    real(8), intent(in) :: u(n), f(n)
    real(8), intent(out) :: r(n)
    integer :: i
    !$omp do
    do i = 2, n - 1
      r(i) = f(i) - (2.0d0 * u(i) - u(i - 1) - u(i + 1))
    end do
    !$omp end do
  end subroutine relax
end module kern

program omp_ws
  use kern
  implicit none
  integer, parameter :: n = 50
  real(8) :: a(n), b(n), c(n), hist(4), tot(2), s
  integer :: i, bin, cnt
  do i = 1, n
    a(i) = sin(dble(i) * 0.3d0)
    b(i) = cos(dble(i) * 0.7d0)
    c(i) = 0.0d0
  end do
  !$omp parallel
  !$omp workshare
  c = a * b + 2.0d0
  a = a + c * 0.5d0
  !$omp end workshare
  !$omp end parallel
  !$omp parallel
  call relax(n, a, b, c)
  !$omp end parallel
  hist = 0.0d0
  !$omp parallel do private(bin)
  do i = 1, n
    bin = 1 + mod(i, 4)
    !$omp atomic
    hist(bin) = hist(bin) + a(i)
  end do
  cnt = 0
  !$omp parallel do
  do i = 1, n
    if (a(i) > 1.0d0) then
      !$omp critical
      cnt = cnt + 1
      !$omp end critical
    end if
  end do
  tot = 0.0d0
  !$omp parallel do reduction(+:tot)
  do i = 1, n
    tot(1) = tot(1) + a(i)
    tot(2) = tot(2) + b(i) * b(i)
  end do
  s = 0.0d0
  !$omp parallel do reduction(-:s)
  do i = 1, n
    s = s - c(i)
  end do
  write(*, '(4ES24.16)') c(1), c(2), c(n - 1), sum(c)
  write(*, '(4ES24.16)') hist
  write(*, '(3ES24.16, I5)') tot, s, cnt
end program omp_ws
