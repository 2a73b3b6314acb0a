! A module with data and contained procedures: a 1-D heat-flow time loop.
!
! The regions use the module's arrays and scalars directly (they are passed to the kernels
! by name) and its named constants (their values are substituted).  Each procedure that
! holds a region gets the interface of its kernel's glue function.

module heat
  implicit none
  integer, parameter :: wp = selected_real_kind(12)
  integer, parameter :: nx = 200
  real(wp) :: temp(nx), flux(0:nx)
  real(wp) :: conductivity = 0.5_wp

contains

  subroutine init()
    integer :: i
    do i = 1, nx
       temp(i) = exp(-((i - nx/2) / 20.0_wp)**2)
    end do
    flux = 0.0_wp
  end subroutine init

  subroutine compute_flux()
    integer :: i
    !$translate kernel flux
    !$translate split_iname("i", 32, outer_tag="g.0", inner_tag="l.0")
    do i = 1, nx - 1
       flux(i) = -conductivity * (temp(i + 1) - temp(i))
    end do
    !$translate end kernel
  end subroutine compute_flux

  subroutine update(dt)
    real(wp), intent(in) :: dt
    integer :: i
    !$translate kernel update
    !$translate split_iname("i", 32, outer_tag="g.0", inner_tag="l.0")
    do i = 1, nx
       temp(i) = temp(i) - dt * (flux(i) - flux(i - 1))
    end do
    !$translate end kernel
  end subroutine update

  real(wp) function energy()
    energy = sum(temp)
  end function energy

end module heat

program main
  use heat
  implicit none
  integer :: step

  call init()
  do step = 1, 100
     call compute_flux()
     call update(0.2_wp)
  end do

  print '(a, 1x, es23.15e3)', 'energy = ', energy()
  print '(a, 3(1x, es23.15e3))', 'temp(1), temp(nx/2), temp(nx) = ', temp(1), temp(nx/2), temp(nx)
end program main
