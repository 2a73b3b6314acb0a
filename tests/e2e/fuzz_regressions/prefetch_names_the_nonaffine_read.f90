! e2e fuzzer, third round (h84), fortran:5010 minimised: add_prefetch of b0 read affinely
! (b0(i + 26)) and through modulo (b0(modulo(i - 3, -3) + 14)).  Before: refused naming the
! affine read, "its read b0[2*i + 28] is neither affine nor rows of a parameter length" (a
! wrong reason); after: the message names the modulo read.
subroutine prefetch_mod(n, b0, a0)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: b0(-2:37)
  real(8), intent(inout) :: a0(-2:37)
  integer :: i, j
  !$translate kernel p0_r0
  !$translate split_iname("j", 7, inner_tag="l.0")
  !$translate add_prefetch("b0", ["j_inner"], fetch_bounding_box=True)
  do i = 0, n, 2
    do j = -2, 4
      a0(i + j) = b0(i + 26) + b0(modulo(i - 3, -3) + 14)
    end do
  end do
  !$translate end kernel
end subroutine prefetch_mod
