! translate-test: translate=--directives=openmp
module work_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  real(dp) :: work(100) = 0
  real(dp) :: scale = 3.0_dp
  real(dp), pointer :: view(:) => null()
  real(dp), target, allocatable :: store(:)
end module work_mod

subroutine shadow(n, a)
  use work_mod, only: dp, scale
  implicit none
  integer, intent(in) :: n
  real(dp), intent(inout) :: a(n)
  real(dp) :: work(50)
  integer :: i
  !$omp parallel do
  do i = 1, n
    work(i) = a(i) * scale
  end do
  !$omp parallel do
  do i = 1, n
    a(i) = work(i) + 1
  end do
end subroutine shadow

subroutine renamed(n, a)
  use work_mod, only: dp, w => work, s => scale
  implicit none
  integer, intent(in) :: n
  real(dp), intent(inout) :: a(n)
  integer :: i
  !$omp parallel do
  do i = 1, n
    w(i + 10) = a(i) * s
    a(i) = a(i) - w(i + 10) * 0.5_dp
  end do
end subroutine renamed

subroutine through_pointer(n)
  use work_mod
  implicit none
  integer, intent(in) :: n
  integer :: i
  !$omp parallel do
  do i = 1, n
    view(i) = view(i) * 2 + i
  end do
end subroutine through_pointer

program names1
  use work_mod
  implicit none
  integer, parameter :: n = 40
  real(dp) :: a(n)
  integer :: i
  do i = 1, n
    a(i) = i * 0.25_dp
  end do
  call shadow(n, a)
  call renamed(n, a)
  allocate(store(0:n + 9))
  store = [(real(i, dp), i = 0, n + 9)]
  view => store(5:n + 4)
  call through_pointer(n)
  print '(4es24.16)', sum(a), sum(work), sum(store), store(5) + store(n + 4)
  print '(3es24.16)', work(11), work(50), store(4)
end program names1
