! translate-test: translate=--directives=openacc,openmp
module fields_m
  implicit none
  type fld_t
    real(8), allocatable :: u(:, :), v(:, :)
    real(8) :: dt
  end type
end module fields_m
program acc_mod
  use fields_m
  implicit none
  integer, parameter :: nx = 24, ny = 10
  type(fld_t) :: f
  real(8) :: a(nx), b(nx), c(nx), s
  integer :: i, j
  allocate(f%u(nx, ny), f%v(nx, ny))
  f%dt = 0.25d0
  do j = 1, ny
    do i = 1, nx
      f%u(i, j) = dble(i * j) * 0.01d0
    end do
  end do
  do i = 1, nx
    b(i) = dble(i)
    c(i) = 1.0d0 / dble(i)
  end do
  !$acc kernels
  a = b * c + 2.0d0
  a(2:nx) = a(2:nx) + b(1:nx-1)
  !$acc end kernels
  !$acc parallel loop collapse(2) copyin(f%u) copyout(f%v)
  do j = 1, ny
    do i = 1, nx
      f%v(i, j) = f%u(i, j) * f%dt
    end do
  end do
  s = 0.0d0
  !$omp target teams distribute parallel do reduction(+:s) map(to: f%v)
  do j = 1, ny
    s = s + sum(f%v(:, j))
  end do
  write(*, '(4ES24.16)') a, f%v(:, 3)
  write(*, '(ES24.16)') s
end program acc_mod
