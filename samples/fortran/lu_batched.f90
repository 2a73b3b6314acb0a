! Batched LU factorisation without pivoting (Doolittle, in place) of many small diagonally
! dominant matrices: the strict lower triangle becomes L (unit diagonal), the rest U.
!
! The loop over the matrices is mapped to work items.  Inside it, step k has two sibling
! loops: one scales column k below the diagonal, then a nest over j = k+1, n updates the
! trailing block, and its inner loop over i = k+1, n is bounded by k, the loop two levels
! out (the second loop over i becomes iname i_1).

subroutine lu_batch(n, nb, a)
  implicit none
  integer, intent(in) :: n, nb
  real(8), intent(inout) :: a(n, n, nb)
  integer :: i, j, k, m

  !$translate kernel lu
  !$translate split_iname("m", 8, outer_tag="g.0", inner_tag="l.0")
  do m = 1, nb
     do k = 1, n - 1
        do i = k + 1, n
           a(i, k, m) = a(i, k, m) / a(k, k, m)
        end do
        do j = k + 1, n
           do i = k + 1, n
              a(i, j, m) = a(i, j, m) - a(i, k, m) * a(k, j, m)
           end do
        end do
     end do
  end do
  !$translate end kernel
end subroutine lu_batch

program main
  implicit none
  integer, parameter :: n = 10, nb = 29
  real(8) :: a(n, n, nb)
  integer :: i, j, m
  real(8) :: total

  do m = 1, nb
     do j = 1, n
        do i = 1, n
           a(i, j, m) = 1.0d0 / (2 * i + j + m) - 0.01d0 * mod(i * j + m, 7)
        end do
        a(j, j, m) = a(j, j, m) + 2 * n
     end do
  end do

  call lu_batch(n, nb, a)

  total = 0
  do m = 1, nb
     do j = 1, n
        do i = 1, n
           total = total + a(i, j, m) * (i + 3 * j + m)
        end do
     end do
  end do
  print '(a, 1x, es23.15e3)', 'checksum = ', total
  print '(a, 3(1x, es23.15e3))', 'a(2,1,1), a(n,n,nb/2), a(1,n,nb) = ', a(2, 1, 1), &
       a(n, n, nb / 2), a(1, n, nb)
end program main
