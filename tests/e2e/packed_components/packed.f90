! translate-test: translate=--directives=openmp,openacc,translate
! Array components of arrays of derived type in regions (h85): sp(k)%v(i) of fixed-size
! components, c%blk(b)%u(i, j) of allocatable ones from 0 beside one fixed block c%blk(1),
! t(ib, jb)%rho(i) of a 2-D array with a reduction, and size(q%v) of a component.
module packed_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0), np = 16
  type species_t
    real(dp) :: q
    real(dp) :: x(np), v(np)
  end type species_t
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
  type vec_t
    real(dp), allocatable :: v(:)
  end type vec_t
contains
  subroutine push(sp, nsp, dt)
    integer, intent(in) :: nsp
    type(species_t), intent(inout) :: sp(nsp)
    real(dp), intent(in) :: dt
    integer :: i, k
    !$translate kernel push_k
    do k = 1, nsp
      do i = 1, np
        sp(k)%v(i) = sp(k)%v(i) + dt * sp(k)%q * sp(k)%x(i)
        sp(k)%x(i) = sp(k)%x(i) + dt * sp(k)%v(i)
      end do
    end do
    !$translate end kernel
  end subroutine push

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

  subroutine axpy(p, q, a)
    type(vec_t), intent(in) :: p
    type(vec_t), intent(inout) :: q
    real(dp), intent(in) :: a
    integer :: i
    !$translate kernel axpy_k
    do i = 1, size(q%v)
      q%v(i) = q%v(i) + a * p%v(i)
    end do
    !$translate end kernel
  end subroutine axpy
end module packed_mod

program packed
  use packed_mod
  implicit none
  type(species_t) :: sp(3)
  type(chunk_t) :: c
  type(tile_t) :: t(0:2, 4)
  type(vec_t) :: p, q
  real(dp) :: total
  integer :: b, i, j, k
  do k = 1, 3
    sp(k)%q = -1.0_dp * k
    do i = 1, np
      sp(k)%x(i) = 0.01_dp * i + k
      sp(k)%v(i) = 0.0_dp
    end do
  end do
  do i = 1, 4
    call push(sp, 3, 0.01_dp)
  end do
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
  allocate(p%v(20), q%v(20))
  do i = 1, 20
    p%v(i) = 0.5_dp * i
    q%v(i) = 1.0_dp / i
  end do
  call axpy(p, q, 0.25_dp)
  do k = 1, 3
    write(*, '(4ES24.16)') sp(k)%x, sp(k)%v
  end do
  do b = 1, c%nb
    write(*, '(5ES24.16)') c%blk(b)%u
  end do
  write(*, '(4ES24.16)') t(1, 2)%rho, t(2, 4)%rho, total
  write(*, '(5ES24.16)') q%v
end program packed
