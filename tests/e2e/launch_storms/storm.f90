! Launch storms: host loops around tiny kernels (issue 21 item 9)
subroutine fill(nx, ny, xv, e)
  integer, intent(in) :: nx, ny
  real(8), intent(inout) :: xv(nx+1, ny+1), e(nx, ny)
  integer :: j, k, jt, kt
  !$translate kernel fill_k
  do k = 1, ny
    do j = 1, nx
      e(j, k) = 0.5d0*j + k
      do kt = k, k + 1
        do jt = j, j + 1
          xv(jt, kt) = e(j, k) + jt
        end do
      end do
    end do
  end do
  !$translate end kernel
end subroutine

subroutine sweep(nz, ny, a, b)
  integer, intent(in) :: nz, ny
  real(8), intent(inout) :: a(4, ny, nz), b(4, ny, nz)
  integer :: i, j, k
  !$translate kernel sweep_k
  do k = 2, nz
    do j = 2, ny
      do i = 1, 4
        a(i, j, k) = a(i, j-1, k) + 0.5d0*a(i, j, k-1)
      end do
      do i = 1, 4
        b(i, j, k) = a(5-i, j, k) - 0.25d0*b(i, j-1, k)
      end do
    end do
  end do
  !$translate end kernel
end subroutine

subroutine wide(nz, ny, c, d)
  integer, intent(in) :: nz, ny
  real(8), intent(inout) :: c(64, ny, nz), d(64, ny, nz)
  integer :: i, j, k
  !$translate kernel wide_k
  do k = 2, nz
    do j = 2, ny
      do i = 1, 64
        c(i, j, k) = c(i, j-1, k) + 0.5d0*c(i, j, k-1)
      end do
      do i = 1, 64
        d(i, j, k) = c(65-i, j, k) - 0.25d0*d(i, j-1, k)
      end do
    end do
  end do
  !$translate end kernel
end subroutine

program storm
  implicit none
  integer, parameter :: nx = 37, ny = 23, nz = 19
  real(8) :: xv(nx+1, ny+1), e(nx, ny), a(4, ny, nz), b(4, ny, nz)
  real(8) :: c(64, ny, nz), d(64, ny, nz)
  integer :: i, j, k
  xv = 0; e = 0
  do k = 1, nz
    do j = 1, ny
      do i = 1, 4
        a(i, j, k) = mod(i*7 + j*3 + k, 11) * 0.125d0
        b(i, j, k) = mod(i + j*5 + k*2, 13) * 0.25d0
      end do
    end do
  end do
  c = 0.125d0
  d = 0.5d0
  c(:, 1, :) = 1
  call fill(nx, ny, xv, e)
  call wide(nz, ny, c, d)
  call sweep(nz, ny, a, b)
  write(*, '(a, 2es24.16)') 'fill ', sum(xv), sum(e)
  write(*, '(a, 2es24.16)') 'sweep', sum(a), sum(b)
  write(*, '(a, 2es24.16)') 'wide ', sum(c), sum(d)
  write(*, '(a, 4es24.16)') 'probe', xv(nx+1, ny+1), e(nx, ny), a(3, ny, nz), b(2, ny, nz)
end program
