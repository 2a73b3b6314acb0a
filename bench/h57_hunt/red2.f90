! translate-test: translate=--directives=openmp,openacc translate=-Wno-error=directive-race rtol=1e-13
module timestep
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  subroutine control(nx, ny, c, u, v, dx, dt, umax, ncfl, vsum)
    integer, intent(in) :: nx, ny
    real(dp), intent(in) :: c(nx, ny), u(0:nx + 1, 0:ny + 1), v(0:nx + 1, 0:ny + 1), dx
    real(dp), intent(out) :: dt, umax, vsum
    integer, intent(out) :: ncfl
    integer :: i, j, l
    real(dp) :: speed, local, acc
    dt = huge(1.0_dp)
    umax = 0
    ncfl = 0
    vsum = 0
    !$omp parallel
    !$omp do simd private(speed) reduction(min:dt) reduction(max:umax) reduction(+:ncfl)
    do j = 1, ny
      do i = 1, nx
        speed = abs(u(i, j)) + abs(v(i, j)) + c(i, j)
        if (speed > 1.0e-12_dp) dt = min(dt, dx / speed)
        umax = max(umax, abs(u(i, j)), abs(v(i, j)))
        if (dx / speed < 0.05_dp) ncfl = ncfl + 1
      end do
    end do
    !$omp end do simd
    !$omp end parallel
    !$acc parallel loop gang vector collapse(2) private(local, acc) reduction(+:vsum)
    do j = 1, ny
      do i = 1, nx
        acc = 0
        !$acc loop seq
        do l = -1, 1
          acc = acc + u(i + l, j) * v(i, j + l)
        end do
        local = acc * 0.5_dp
        vsum = vsum + local
      end do
    end do
  end subroutine control
end module timestep

program red2
  use timestep
  implicit none
  integer, parameter :: nx = 45, ny = 33
  real(dp) :: c(nx, ny), u(0:nx + 1, 0:ny + 1), v(0:nx + 1, 0:ny + 1), dt, umax, vsum
  integer :: i, j, ncfl
  do j = 0, ny + 1
    do i = 0, nx + 1
      u(i, j) = 3.0_dp * sin(0.2_dp * i) * cos(0.1_dp * j)
      v(i, j) = -2.0_dp * cos(0.15_dp * i * j)
    end do
  end do
  c = 1.5_dp
  c(7, 9) = 40.0_dp
  call control(nx, ny, c, u, v, 0.1_dp, dt, umax, ncfl, vsum)
  print '(2es24.16, i8, es24.16)', dt, umax, ncfl, vsum
end program red2
