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
