! An allocatable array of a derived type without BIND(C) or SEQUENCE, lower bound 0, with
! real, integer, real(8) and logical components; a neighbour's component read (c(i-1)%rho).
program cells
  implicit none
  type cell
    real :: rho
    integer :: kind
    real(8) :: e
    logical :: hot
  end type cell
  type(cell), allocatable :: c(:)
  real(8) :: w(0:299)
  integer :: i, t, k
  real(8) :: s
  allocate(c(0:299))
  do i = 0, 299
    c(i)%rho = 0.5 * mod(i, 9); c(i)%kind = mod(i, 3) - 1; c(i)%e = 1d0 + i; c(i)%hot = .false.
    w(i) = 1d-3 * i
  end do
  do t = 1, 3
    !$translate kernel relax_k
    do i = 1, 298
      if (c(i)%kind > 0) c(i)%e = c(i)%e * 0.5d0 + w(i) * c(i)%rho + c(i-1)%rho
      c(i)%hot = c(i)%e > 100d0
    end do
    !$translate end kernel
  end do
  s = 0; k = 0
  do i = 0, 299
    s = s + c(i)%e + c(i)%rho
    if (c(i)%hot) k = k + i
  end do
  print '(es25.16, i10)', s, k
end program cells
