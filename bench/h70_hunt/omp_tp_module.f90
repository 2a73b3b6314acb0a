! translate-test: translate=--directives=openmp rtol=1e-13
! THREADPRIVATE module variables (scratch of each thread) and a THREADPRIVATE list continued
! on a second line, in free form.
module scratch
  implicit none
  real(8) :: w, v
  integer :: k
  !$omp threadprivate(w, &
  !$omp&              v)
  !$omp threadprivate(k)
end module scratch

module sweeps
  use scratch
  implicit none
contains
  subroutine sweep(n, a, b)
    integer, intent(in) :: n
    real(8), intent(in) :: a(n)
    real(8), intent(out) :: b(n)
    integer :: i
    !$omp parallel do
    do i = 1, n
      w = a(i) * 2.0d0
      v = w + 1.0d0
      k = mod(i, 7)
      b(i) = w * v + dble(k)
    end do
  end subroutine sweep
end module sweeps

subroutine local_tp(n, a, c)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n)
  real(8), intent(out) :: c(n)
  real(8) :: t, u
  real(8), save :: p, q
  common /wk/ t, u
  !$omp threadprivate(/wk/, p, &
  !$omp   q)
  integer :: i
  !$omp parallel do
  do i = 1, n
    t = a(i) - 1.0d0
    u = t * t
    p = u + 0.5d0
    q = p * t
    c(i) = u + t + q
  end do
end subroutine local_tp

program omp_tp_module
  use sweeps
  implicit none
  integer, parameter :: n = 1000
  real(8) :: a(n), b(n), c(n)
  integer :: i
  do i = 1, n
    a(i) = dble(i) * 0.5d0
  end do
  call sweep(n, a, b)
  call local_tp(n, a, c)
  print '(3ES24.16)', sum(b), b(7), sum(c)
end program omp_tp_module
