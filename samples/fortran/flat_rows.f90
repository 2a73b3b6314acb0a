! Legacy Fortran addressing 2-D data through 1-D dummies: a(j + ld*(k-1)) is row k-1,
! column j-1 of rows of ld elements.  The translator reads such subscripts back as rows when
! it proves that the column stays inside its row: whole rows (j = 1, ld) as written; the first
! n of each row under assume("n <= ld"), which the glue checks at each call (without it, the
! refusal of a mapping names that assumption); padded rows a(1 + j + (n+4)*k) from 0-based
! loops.  Every region maps k and j in parallel.

subroutine rows(n, m, ld, a, b, c, d)
  integer, intent(in) :: n, m, ld
  real(8), intent(in) :: a(*)
  real(8), intent(inout) :: b(*), c(*), d(*)
  integer :: j, k
  !$translate kernel whole_rows
  do k = 1, m
     do j = 1, ld
        c(j + ld*(k-1)) = 3d0*a(j + ld*(k-1)) - 1d0
     end do
  end do
  !$translate end kernel
  !$translate kernel first_n
  !$translate assume("n <= ld")
  do k = 1, m
     do j = 1, n
        b(j + ld*(k-1)) = 2d0*a(j + ld*(k-1)) + a(1 + (j-1) + ld*(k-1))
     end do
  end do
  !$translate end kernel
  !$translate kernel padded
  do k = 0, m - 1
     do j = 0, n - 1
        d(1 + j + (n+4)*k) = a(1 + j + (n+4)*k) + 0.5d0*a(3 + j + (n+4)*k)
     end do
  end do
  !$translate end kernel
end subroutine rows

program main
  implicit none
  integer, parameter :: n = 13, m = 7, ld = 16
  real(8) :: a((n+4)*m), b(ld*m), c(ld*m), d((n+4)*m)
  integer :: i
  do i = 1, (n+4)*m
     a(i) = mod(i, 11) - 5
     d(i) = -3
  end do
  b = -1
  c = -2
  call rows(n, m, ld, a, b, c, d)
  print '(6es24.16)', sum(b), sum(c), sum(d), b(1), b(ld+n), c(ld*m)
end program main
