! An array of derived type whose components are arrays: p(k)%v(i) (species of a plasma code,
! blocks of a multi-block mesh).
module species_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0), np = 64
  type species_t
    real(dp) :: q
    real(dp) :: x(np), v(np)
  end type species_t
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
end module species_mod

program parts1
  use species_mod
  implicit none
  type(species_t) :: sp(3)
  integer :: i, k
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
  do k = 1, 3
    write(*, '(4ES24.16)') sp(k)%x(1:np:9), sp(k)%v(1:np:9)
  end do
end program parts1
