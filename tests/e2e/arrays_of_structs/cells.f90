! An allocatable array of a derived type without BIND(C) or SEQUENCE, lower bound 0, with
! real, integer, real(8) and logical components; a neighbour's component read (c(i-1)%rho);
! components of a component of derived type (c(i)%v%x, passed as c%v%x).
program cells
  implicit none
  type vec
    real(8) :: x, y
  end type vec
  type cell
    real :: rho
    integer :: kind
    real(8) :: e
    logical :: hot
    type(vec) :: v
  end type cell
  type(cell), allocatable :: c(:)
  real(8) :: w(0:299)
  integer :: i, t, k
  real(8) :: s
  allocate(c(0:299))
  do i = 0, 299
    c(i)%rho = 0.5 * mod(i, 9); c(i)%kind = mod(i, 3) - 1; c(i)%e = 1d0 + i; c(i)%hot = .false.
    c(i)%v%x = 0.5d0 * i; c(i)%v%y = 0
    w(i) = 1d-3 * i
  end do
  do t = 1, 3
    !$translate kernel relax_k
    do i = 1, 298
      if (c(i)%kind > 0) c(i)%e = c(i)%e * 0.5d0 + w(i) * c(i)%rho + c(i-1)%rho
      c(i)%hot = c(i)%e > 100d0
      c(i)%v%y = c(i)%v%y + c(i)%v%x * c(i)%rho
    end do
    !$translate end kernel
  end do
  s = 0; k = 0
  do i = 0, 299
    s = s + c(i)%e + c(i)%rho + c(i)%v%y
    if (c(i)%hot) k = k + i
  end do
  print '(es25.16, i10)', s, k
end program cells
