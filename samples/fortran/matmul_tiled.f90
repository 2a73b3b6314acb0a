! Tiled matrix-matrix product C = A*B: both operands are staged in local memory.
!
! i and j are split into 16x16 work groups; k is split into steps of 16.  For each step, the
! work group first copies a 16x16 tile of A and one of B into local memory (add_prefetch),
! then every work item reads its row of the A tile and its column of the B tile from there:
! each element of A and B is read from global memory once per work group instead of 16
! times.  The translator computes the tiles' footprints, maps the copies onto the work
! group and puts a barrier after the copies and one before the next step overwrites them.
! The sizes are not multiples of 16: the copies and the products are guarded at the edges.

subroutine mxm_tiled(m, n, p, a, b, c)
  implicit none
  integer, intent(in) :: m, n, p
  real(8), intent(in) :: a(m, p), b(p, n)
  real(8), intent(out) :: c(m, n)
  integer :: i, j, k
  real(8) :: t

  !$translate kernel mxm_tiled
  !$translate split_iname("i", 16, outer_tag="g.0", inner_tag="l.0")
  !$translate split_iname("j", 16, outer_tag="g.1", inner_tag="l.1")
  !$translate split_iname("k", 16)
  !$translate add_prefetch("a", ["i_inner", "k_inner"])
  !$translate add_prefetch("b", ["k_inner", "j_inner"])
  do j = 1, n
     do i = 1, m
        t = 0.0d0
        do k = 1, p
           t = t + a(i, k) * b(k, j)
        end do
        c(i, j) = t
     end do
  end do
  !$translate end kernel
end subroutine mxm_tiled

program main
  implicit none
  integer, parameter :: m = 50, n = 37, p = 43
  real(8) :: a(m, p), b(p, n), c(m, n)
  integer :: i, j

  do j = 1, p
     do i = 1, m
        a(i, j) = real(mod(i * j, 11), 8) / 7.0d0 - 0.5d0
     end do
  end do
  do j = 1, n
     do i = 1, p
        b(i, j) = sin(0.1d0 * (i - 2 * j))
     end do
  end do

  call mxm_tiled(m, n, p, a, b, c)

  print '(a, 1x, es23.15e3)', 'checksum = ', sum(c)
  print '(a, 3(1x, es23.15e3))', 'c(1,1), c(17,33), c(m,n) = ', c(1, 1), c(17, 33), c(m, n)
end program main
