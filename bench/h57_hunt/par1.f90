! translate-test: translate=--directives=openmp rtol=1e-13
module coeffs
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  real(dp), parameter :: w(-1:1) = [0.25_dp, 0.5_dp, 0.25_dp]
  integer, parameter :: perm(4) = [3, 1, 4, 2]
contains
  pure function limiter(a, b) result(r)
    real(dp), intent(in) :: a, b
    real(dp) :: r
    if (a * b <= 0.0_dp) then
      r = 0.0_dp
    else
      r = sign(min(abs(a), abs(b)), a)
    end if
  end function limiter

  elemental function sq(x) result(y)
    real(dp), intent(in) :: x
    real(dp) :: y
    y = x * x
  end function sq
end module coeffs

module chunk_mod
  use coeffs
  implicit none
  type field_t
    real(dp), allocatable :: density(:, :), work(:, :)
  end type field_t
  type chunk_t
    integer :: nx, ny
    type(field_t) :: field
  end type chunk_t
  type(chunk_t), allocatable :: chunks(:)
end module chunk_mod

subroutine smooth(nx, ny, d, out, tot, mx)
  use coeffs
  implicit none
  integer, intent(in) :: nx, ny
  real(dp), intent(in) :: d(nx, ny)
  real(dp), intent(out) :: out(nx, ny)
  real(dp), intent(out) :: tot, mx
  real(dp) :: tmp(nx, ny)
  integer :: i, j, s
  real(dp) :: scale
  tot = 0
  mx = -huge(1.0_dp)
!$omp parallel private(i, s)
!$omp do
  do j = 1, ny
    do i = 2, nx - 1
      tmp(i, j) = 0
      do s = -1, 1
        tmp(i, j) = tmp(i, j) + w(s) * d(i + s, j)
      end do
    end do
  end do
!$omp end do
!$omp single
  scale = 1.0_dp / real(nx * ny, dp)
!$omp end single
!$omp do reduction(+:tot) reduction(max:mx)
  do j = 2, ny - 1
    do i = 2, nx - 1
      out(i, j) = limiter(tmp(i, j) - tmp(i - 1, j), tmp(i + 1, j) - tmp(i, j)) + sq(tmp(i, j)) * scale
      tot = tot + out(i, j)
      mx = max(mx, out(i, j) + perm(mod(i, 4) + 1))
    end do
  end do
!$omp end do
!$omp end parallel
end subroutine smooth

program par1
  use coeffs
  use chunk_mod
  implicit none
  integer :: c, j, k
  real(dp) :: tot, mx
  allocate(chunks(2))
  do c = 1, 2
    chunks(c)%nx = 30 + c
    chunks(c)%ny = 20 - c
    allocate(chunks(c)%field%density(chunks(c)%nx, chunks(c)%ny))
    allocate(chunks(c)%field%work(chunks(c)%nx, chunks(c)%ny))
    do k = 1, chunks(c)%ny
      do j = 1, chunks(c)%nx
        chunks(c)%field%density(j, k) = sin(0.3_dp * j * c) + cos(0.2_dp * k)
      end do
    end do
    chunks(c)%field%work = 0
    call smooth(chunks(c)%nx, chunks(c)%ny, chunks(c)%field%density, chunks(c)%field%work, tot, mx)
    print '(i3, 3es24.16)', c, tot, mx, sum(chunks(c)%field%work)
  end do
  ! a kernel directly on nested components of an array of derived types
  c = 2
!$omp parallel do private(j)
  do k = 1, chunks(2)%ny
    do j = 1, chunks(2)%nx
      chunks(2)%field%work(j, k) = chunks(2)%field%density(j, k) * 2 + chunks(2)%field%work(j, k)
    end do
  end do
  print '(es24.16)', sum(chunks(2)%field%work)
end program par1
