! translate-test: translate=--directives=openmp,openacc,translate
! A scalar derived type with an allocatable array component, read with p%v(i), and a
! fixed one-element pick of an array of types: blk(2)%u(i, j).
module blocks_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  type block_t
    integer :: n
    real(dp), allocatable :: u(:, :)
  end type block_t
  type vec_t
    real(dp), allocatable :: v(:)
  end type vec_t
contains
  subroutine axpy(p, q, a)
    type(vec_t), intent(in) :: p
    type(vec_t), intent(inout) :: q
    real(dp), intent(in) :: a
    integer :: i
    !$translate kernel axpy_k
    do i = 1, size(p%v)
      q%v(i) = q%v(i) + a * p%v(i)
    end do
    !$translate end kernel
  end subroutine axpy

  subroutine scale_block(blk, kb)
    type(block_t), intent(inout) :: blk(:)
    integer, intent(in) :: kb
    integer :: i, j
    !$omp target teams distribute parallel do collapse(2)
    do j = 1, blk(kb)%n
      do i = 1, blk(kb)%n
        blk(kb)%u(i, j) = 2.0_dp * blk(kb)%u(i, j) + blk(1)%u(i, j)
      end do
    end do
  end subroutine scale_block
end module blocks_mod

program parts2
  use blocks_mod
  implicit none
  type(vec_t) :: p, q
  type(block_t) :: blk(3)
  integer :: i, k
  allocate(p%v(50), q%v(50))
  do i = 1, 50
    p%v(i) = 0.5_dp * i
    q%v(i) = 1.0_dp / i
  end do
  call axpy(p, q, 0.25_dp)
  do k = 1, 3
    blk(k)%n = 6
    allocate(blk(k)%u(6, 6))
    blk(k)%u = real(k, dp)
  end do
  call scale_block(blk, 2)
  call scale_block(blk, 3)
  write(*, '(5ES24.16)') q%v(1:50:5)
  write(*, '(6ES24.16)') blk(2)%u, blk(3)%u(:, 1)
end program parts2
