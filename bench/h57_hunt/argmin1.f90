! translate-test: translate=--directives=openmp,translate
subroutine calc_dt(nx, ny, dtc, dtmin, jl, kl, jmx, kmx, dtmax)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: dtc(nx, ny)
  real(8), intent(out) :: dtmin, dtmax
  integer, intent(out) :: jl, kl, jmx, kmx
  integer :: j, k
  dtmin = 1.0d30
  jl = -1; kl = -1
  !$translate kernel
  do k = 1, ny
    do j = 1, nx
      if (dtc(j, k) < dtmin) then
        dtmin = dtc(j, k)
        jl = j
        kl = k
      end if
    end do
  end do
  !$translate end kernel
  dtmax = -1.0d30
  jmx = 0; kmx = 0
  !$translate kernel
  do k = 1, ny
    do j = 1, nx
      if (dtc(j, k) >= dtmax) then
        dtmax = dtc(j, k)
        jmx = j
        kmx = k
      end if
    end do
  end do
  !$translate end kernel
end subroutine calc_dt

program argmin1
  implicit none
  integer, parameter :: nx = 61, ny = 47
  real(8) :: dtc(nx, ny), dtmin, dtmax
  integer :: j, k, jl, kl, jmx, kmx
  do k = 1, ny
    do j = 1, nx
      dtc(j, k) = 1.0d0 + mod(j * 7 + k * 13, 29) * 0.25d0   ! many ties of the minimum and maximum
    end do
  end do
  call calc_dt(nx, ny, dtc, dtmin, jl, kl, jmx, kmx, dtmax)
  print '(es24.16, 2i6, es24.16, 2i6)', dtmin, jl, kl, dtmax, jmx, kmx
end program argmin1
