! translate-test: rtol=1e-13 translate=--directives=openmp,openacc
module w
  implicit none
contains
  subroutine orph(n, a, b)
    integer, intent(in) :: n
    real(8), intent(in) :: a(n)
    real(8), intent(inout) :: b(n)
    integer :: i
    !$omp do
    do i = 1, n
       b(i) = b(i) + a(i) ** 2
    end do
    !$omp end do
  end subroutine
end module
program main
  use w
  implicit none
  integer, parameter :: n = 300, m = 20
  real(8) :: a(n), b(n), c(m, n)
  real(4) :: f(n)
  integer(8) :: k8(n)
  logical :: l(n)
  integer :: i, j
  do i = 1, n
     a(i) = cos(0.05d0 * i) ; b(i) = i ; f(i) = i * 0.1
  end do
  call orph(n, a, b)
  !$omp parallel do simd
  do i = 1, n
     k8(i) = int(i, 8) ** 5 - 2_8 ** 40 + int(b(i), 8) / (-3_8)
     l(i) = b(i) > 150 .or. a(i) < 0
     f(i) = f(i) * 1.5 + real(a(i)) ** 2 + 2.0 ** (-3)
  end do
  !$acc data copyin(a) copy(c)
  !$acc parallel loop gang
  do j = 1, n
     !$acc loop vector
     do i = 1, m
        c(i, j) = a(j) * i
     end do
  end do
  a = a + 1
  !$acc update device(a)
  !$acc parallel loop collapse(2)
  do j = 1, n
     do i = 1, m
        c(i, j) = c(i, j) + a(j)
     end do
  end do
  !$acc end data
  print '(es24.16, i22, i5, es24.16, es24.16)', sum(b), sum(k8), count(l), dble(sum(f)), sum(c)
end program
