! Two matrix products in a row: e = (a*b)*d.  The second product reads all of the first one's
! result, so the region runs as two parallel kernels, one after the other, and c stays on
! the device between them.  The products accumulate in place: a local scalar accumulator
! would be a region argument (its value is visible after the region), shared by all work
! items.

subroutine products(n, a, b, d, c, e)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n, n), b(n, n), d(n, n)
  real(8), intent(out) :: c(n, n), e(n, n)
  integer :: i, j, k

  !$translate kernel products
  do j = 1, n
     do i = 1, n
        c(i, j) = 0.0d0
        do k = 1, n
           c(i, j) = c(i, j) + a(i, k) * b(k, j)
        end do
     end do
  end do
  do j = 1, n
     do i = 1, n
        e(i, j) = 0.0d0
        do k = 1, n
           e(i, j) = e(i, j) + c(i, k) * d(k, j)
        end do
     end do
  end do
  !$translate end kernel
end subroutine products

program main
  implicit none
  integer, parameter :: n = 40
  real(8) :: a(n, n), b(n, n), c(n, n), d(n, n), e(n, n), s
  integer :: i, j

  do j = 1, n
     do i = 1, n
        a(i, j) = mod(i + 2 * j, 7) * 0.25d0 - 0.5d0
        b(i, j) = mod(3 * i + j, 5) * 0.125d0
        d(i, j) = mod(i * j, 3) * 0.0625d0
     end do
     d(j, j) = 1.5d0
  end do
  call products(n, a, b, d, c, e)
  s = 0.0d0
  do j = 1, n
     do i = 1, n
        s = s + e(i, j) * (1 + mod(i + j, 4)) + c(i, j)
     end do
  end do
  print '(a, es23.15e3)', 'checksum ', s
  print '(a, 2es23.15e3)', 'e(2,3), e(n,n) ', e(2, 3), e(n, n)
end program main
