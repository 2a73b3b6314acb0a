! translate-test: translate=--directives=openacc,openmp
program dtype1
  implicit none
  type field_t
    real(8), allocatable :: a(:), b(:)
  end type
  type(field_t) :: t
  integer, parameter :: n = 64
  integer :: i
  allocate(t%a(n), t%b(n))
  do i = 1, n
    t%a(i) = dble(i)
    t%b(i) = 0.0d0
  end do
  !$acc data copy(t%a, t%b)
  !$acc parallel loop
  do i = 1, n
    t%b(i) = t%a(i) * 2.0d0
  end do
  !$acc end data
  !$omp target map(tofrom: t%a) map(to: t%b)
  !$omp parallel do
  do i = 1, n
    t%a(i) = t%a(i) + t%b(i)
  end do
  !$omp end target
  write(*, '(4ES24.16)') t%a, t%b
end program dtype1
