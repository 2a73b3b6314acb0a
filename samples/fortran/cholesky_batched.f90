! Batched Cholesky factorisation A = L*L**T of many small symmetric positive definite
! matrices, in place (the lower triangle of each matrix becomes L).
!
! The loop over the matrices is mapped to work items.  Inside it the factorisation is an
! imperfect nest with sibling loops: for column i, one loop over j = 1, i-1 forms the
! diagonal, then a second loop over j = i+1, n updates the column below it, and its inner
! loop over k = 1, i-1 is bounded by i, the loop two levels out.  The scalars s and t are
! written first in every iteration of their loops, so each work item keeps its own.

subroutine cholesky_batch(n, nb, a)
  implicit none
  integer, intent(in) :: n, nb
  real(8), intent(inout) :: a(n, n, nb)
  integer :: i, j, k, m
  real(8) :: s, t

  !$translate kernel chol
  !$translate split_iname("m", 8, outer_tag="g.0", inner_tag="l.0")
  do m = 1, nb
     do i = 1, n
        s = a(i, i, m)
        do j = 1, i - 1
           s = s - a(i, j, m)**2
        end do
        a(i, i, m) = sqrt(s)
        do j = i + 1, n
           t = a(j, i, m)
           do k = 1, i - 1
              t = t - a(j, k, m) * a(i, k, m)
           end do
           a(j, i, m) = t / a(i, i, m)
        end do
     end do
  end do
  !$translate end kernel
end subroutine cholesky_batch

program main
  implicit none
  integer, parameter :: n = 12, nb = 37
  real(8) :: a(n, n, nb)
  integer :: i, j, m
  real(8) :: total

  do m = 1, nb
     do j = 1, n
        do i = 1, n
           a(i, j, m) = 1.0d0 / (i + j + m - 1)
        end do
        a(j, j, m) = a(j, j, m) + n + mod(m, 3)
     end do
  end do

  call cholesky_batch(n, nb, a)

  total = 0
  do m = 1, nb
     do j = 1, n
        do i = j, n
           total = total + a(i, j, m) * (i + 2 * j)
        end do
     end do
  end do
  print '(a, 1x, es23.15e3)', 'checksum = ', total
  print '(a, 3(1x, es23.15e3))', 'l(1,1,1), l(n,1,nb/2), l(n,n,nb) = ', a(1, 1, 1), &
       a(n, 1, nb / 2), a(n, n, nb)
end program main
