! translate-test: translate=--directives=openmp rtol=1e-13
module kinds_m
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: nx = 29, ny = 17
end module kinds_m

module state_m
  use kinds_m
  implicit none
  type field_type
    real(dp), allocatable :: density(:, :), energy(:, :)
    real(dp), allocatable :: flux(:, :)
    integer :: x_min, x_max, y_min, y_max
  end type field_type
  type(field_type) :: field
  real(dp), allocatable :: work1(:, :), work2(:, :)
  integer, allocatable :: material(:, :)
end module state_m

module kernels_m
  use kinds_m
  use state_m
  implicit none
contains
  subroutine classify()
    integer :: j, k, m
    real(dp) :: coef
!$omp parallel do private(j, m, coef) collapse(2)
    do k = 1, ny
      do j = 1, nx
        m = material(j, k)
        select case (m)
        case (0)
          coef = 1.5_dp
        case (1, 2)
          coef = 0.25_dp * m
        case (3:5)
          coef = -real(m, dp)
        case default
          coef = 0.0_dp
        end select
        work1(j, k) = coef * field%density(j, k)
      end do
    end do
!$omp end parallel do
  end subroutine classify

  subroutine limiter()
    integer :: j, k
    real(dp) :: d1, d2, s
!$omp parallel
!$omp do private(d1, d2, s)
    do k = 2, ny - 1
      do j = 2, nx - 1
        d1 = field%energy(j, k) - field%energy(j - 1, k)
        d2 = field%energy(j + 1, k) - field%energy(j, k)
        s = sign(1.0_dp, d2)
        if (d1 * d2 <= 0.0_dp) then
          field%flux(j, k) = 0.0_dp
        else if (abs(d1) < abs(d2)) then
          field%flux(j, k) = s * min(abs(d1), 2.0_dp * abs(d2))
        else
          field%flux(j, k) = s * max(abs(d2), 0.5_dp * abs(d1)) ** 0.5_dp
        end if
      end do
    end do
!$omp end do
!$omp do
    do k = 1, ny
!$omp simd
      do j = 1, nx
        work2(j, k) = merge(work1(j, k), -work1(j, k), mod(j + k, 3) == 0) &
                      + nint(field%density(j, k) * 7.3_dp)
      end do
    end do
!$omp end do nowait
!$omp end parallel
  end subroutine limiter
end module kernels_m

program modarr
  use kinds_m
  use state_m
  use kernels_m
!$ use omp_lib
  implicit none
  integer :: j, k, nthr
  nthr = 1
!$ nthr = omp_get_max_threads()
  allocate(field%density(nx, ny), field%energy(nx, ny), field%flux(nx, ny))
  allocate(work1(nx, ny), work2(nx, ny), material(nx, ny))
  do k = 1, ny
    do j = 1, nx
      field%density(j, k) = 1.0_dp + 0.5_dp * sin(0.3_dp * j) * cos(0.2_dp * k)
      field%energy(j, k) = (j - 14) ** 2 * 0.01_dp - 0.03_dp * k
      material(j, k) = mod(j * 7 + k * 3, 8) - 1
    end do
  end do
  field%flux = -1.0_dp
  call classify()
  call limiter()
  write(*, '(3ES24.16)') sum(work1), sum(work2), sum(field%flux)
  write(*, '(4ES24.16)') work1(3, 4), work2(5, 6), field%flux(7, 8), field%flux(20, 10)
  if (nthr < 1) print *, 'no threads'
end program modarr
