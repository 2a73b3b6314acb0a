! translate-test: translate=--directives=openmp,openacc,translate
! Gathers inside arrays of derived type (h85's packing): each species holds a particle->cell
! table; the field is gathered at the particles' cells, sp(k)%e(i) = ef(sp(k)%cell(i)), and
! a block's own neighbour table reads its own values, blk(b)%u(blk(b)%nbr(i)).
module pic_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0), np = 40, nc = 16
  type species_t
    integer :: cell(np)
    real(dp) :: e(np), v(np)
  end type species_t
  type block_t
    integer :: nbr(nc)
    real(dp) :: u(nc), w(nc)
  end type block_t
contains
  subroutine kick(sp, nsp, ef, dt)
    integer, intent(in) :: nsp
    type(species_t), intent(inout) :: sp(nsp)
    real(dp), intent(in) :: ef(0:nc - 1), dt
    integer :: i, k
    !$omp parallel do private(i)
    do k = 1, nsp
      do i = 1, np
        sp(k)%e(i) = ef(sp(k)%cell(i))
        sp(k)%v(i) = sp(k)%v(i) + dt * sp(k)%e(i)
      end do
    end do
  end subroutine kick

  subroutine shift(blk, nb)
    integer, intent(in) :: nb
    type(block_t), intent(inout) :: blk(nb)
    integer :: b, i
    !$acc parallel loop collapse(2)
    do b = 1, nb
      do i = 1, nc
        blk(b)%w(i) = 0.5_dp * (blk(b)%u(i) + blk(b)%u(blk(b)%nbr(i)))
      end do
    end do
  end subroutine shift
end module pic_mod

program parts1
  use pic_mod
  implicit none
  type(species_t) :: sp(3)
  type(block_t) :: blk(4)
  real(dp) :: ef(0:nc - 1)
  integer :: i, k
  do i = 0, nc - 1
    ef(i) = cos(0.4_dp * i)
  end do
  do k = 1, 3
    do i = 1, np
      sp(k)%cell(i) = mod(i * k * 5, nc)
      sp(k)%v(i) = 0.0_dp
    end do
  end do
  do k = 1, 4
    do i = 1, nc
      blk(k)%nbr(i) = 1 + mod(i + k, nc)
      blk(k)%u(i) = k + 0.1_dp * i
    end do
  end do
  do i = 1, 3
    call kick(sp, 3, ef, 0.1_dp)
  end do
  call shift(blk, 4)
  do k = 1, 3
    write(*, '(3ES24.16)') sp(k)%v(1), sp(k)%v(np), sum(sp(k)%e)
  end do
  write(*, '(3ES24.16)') blk(1)%w(1), blk(4)%w(nc), sum(blk(2)%w)
end program parts1
