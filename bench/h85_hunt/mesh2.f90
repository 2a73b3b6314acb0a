! translate-test: translate=--directives=openacc
! The OpenACC manual deep copy of a derived type, as codes written for nvfortran carry it:
! enter data of the structure, then of its allocatable components, present() on the loops,
! update self of one component in the time loop, exit data in reverse order.
module state_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  type state_t
    integer :: n
    real(dp) :: dt
    real(dp), allocatable :: u(:), f(:)
  end type state_t
contains
  subroutine rhs(s)
    type(state_t), intent(inout) :: s
    integer :: i
    !$acc parallel loop present(s%u, s%f)
    do i = 2, s%n - 1
      s%f(i) = s%u(i - 1) - 2 * s%u(i) + s%u(i + 1)
    end do
  end subroutine rhs

  subroutine advance(s)
    type(state_t), intent(inout) :: s
    integer :: i
    !$acc parallel loop default(present)
    do i = 2, s%n - 1
      s%u(i) = s%u(i) + s%dt * s%f(i)
    end do
  end subroutine advance
end module state_mod

program mesh2
  use state_mod
  implicit none
  type(state_t) :: s
  integer :: i, step
  real(dp) :: probe
  s%n = 64
  s%dt = 0.2_dp
  allocate(s%u(s%n), s%f(s%n))
  do i = 1, s%n
    s%u(i) = exp(-0.01_dp * (i - 32)**2)
  end do
  s%f = 0
  !$acc enter data copyin(s)
  !$acc enter data copyin(s%u, s%f)
  probe = 0
  do step = 1, 10
    call rhs(s)
    call advance(s)
    if (mod(step, 5) == 0) then
      !$acc update self(s%u)
      probe = probe + s%u(32)
    end if
  end do
  !$acc exit data copyout(s%u) delete(s%f)
  !$acc exit data delete(s)
  write(*, '(4ES24.16)') s%u(1:64:4), probe
end program mesh2
