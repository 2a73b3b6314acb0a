! translate-test: translate=--directives=openmp,openacc,translate
! Multi-block state: allocatable array components of an array of blocks inside a chunk type
! (c%blk(b)%u(i, j)), lower bounds from 0, a 2-D array of tiles t(ib, jb)%rho(i), and a use of
! one fixed block beside the loop over all of them (c%blk(1)%u(i, j)).
module multiblock
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  type block_t
    real(dp), allocatable :: u(:, :)
    real(dp), allocatable :: w(:)
  end type block_t
  type chunk_t
    integer :: nb, n
    type(block_t), allocatable :: blk(:)
  end type chunk_t
  type tile_t
    real(dp) :: rho(8)
  end type tile_t
contains
  subroutine relax(c)
    type(chunk_t), intent(inout) :: c
    integer :: b, i, j
    !$acc parallel loop collapse(3)
    do b = 2, c%nb
      do j = 1, c%n
        do i = 0, c%n - 1
          c%blk(b)%u(i, j) = 0.5_dp * (c%blk(b)%u(i, j) + c%blk(1)%u(i, j)) + c%blk(b)%w(j)
        end do
      end do
    end do
  end subroutine relax

  subroutine tiles(t, nbx, nby, total)
    integer, intent(in) :: nbx, nby
    type(tile_t), intent(inout) :: t(0:nbx - 1, nby)
    real(dp), intent(out) :: total
    integer :: ib, jb, i
    total = 0
    !$omp target teams distribute parallel do collapse(2) reduction(+:total)
    do jb = 1, nby
      do ib = 0, nbx - 1
        do i = 1, 8
          t(ib, jb)%rho(i) = t(ib, jb)%rho(i) * 1.5_dp + ib - jb
          total = total + t(ib, jb)%rho(i)
        end do
      end do
    end do
  end subroutine tiles
end module multiblock

program parts3
  use multiblock
  implicit none
  type(chunk_t) :: c
  type(tile_t) :: t(0:2, 4)
  real(dp) :: total
  integer :: b, i, j, k
  c%nb = 4
  c%n = 5
  allocate(c%blk(c%nb))
  do b = 1, c%nb
    allocate(c%blk(b)%u(0:c%n - 1, c%n), c%blk(b)%w(c%n))
    do j = 1, c%n
      c%blk(b)%w(j) = 0.01_dp * j * b
      do i = 0, c%n - 1
        c%blk(b)%u(i, j) = sin(0.1_dp * (i + 7 * j + 31 * b))
      end do
    end do
  end do
  do k = 1, 3
    call relax(c)
  end do
  do j = 1, 4
    do i = 0, 2
      t(i, j)%rho = [(0.125_dp * (b + i - j), b = 1, 8)]
    end do
  end do
  call tiles(t, 3, 4, total)
  do b = 1, c%nb
    write(*, '(5ES24.16)') c%blk(b)%u
  end do
  write(*, '(4ES24.16)') t(1, 2)%rho, t(2, 4)%rho, total
end program parts3
