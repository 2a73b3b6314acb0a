! The smallest (largest) value of a nest and where it is, in one loop: the time-step control
! of a hydro code.  The block
!
!     if (dtc < dtmin) then; dtmin = dtc; jmin = j; kmin = k; end if
!
! is an arg-min reduction: with both loops on the hardware each work group selects its best
! (value, position) and the last group to finish selects the best of all groups.  The result
! is the loop's, bit for bit: with `<` the first position in loop order wins ties, with `<=`
! the last; NaNs are never selected; where no value beats the initial one, the value and the
! locations keep what they had before the loop.  `--report` names the reduction.

subroutine min_first(nx, ny, a, dx, dtmin, jmin, kmin)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: a(nx, ny), dx
  real(8), intent(inout) :: dtmin
  integer, intent(inout) :: jmin, kmin
  real(8) :: dtc
  integer :: j, k
  !$translate kernel min_first_k
  do k = 1, ny
    do j = 1, nx
      dtc = dx*a(j, k)
      if (dtc < dtmin) then
        dtmin = dtc
        jmin = j
        kmin = k
      end if
    end do
  end do
  !$translate end kernel
end subroutine min_first

! `<=`: the last position wins ties; the location is a linear cell number.
subroutine min_last(nx, ny, a, best, cell)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: a(nx, ny)
  real(8), intent(inout) :: best
  integer, intent(inout) :: cell
  integer :: j, k
  !$translate kernel min_last_k
  do k = 1, ny
    do j = 1, nx
      if (a(j, k) <= best) then
        best = a(j, k)
        cell = j + (k - 1)*nx
      end if
    end do
  end do
  !$translate end kernel
end subroutine min_last

! Maxima, written with the scalar on the left: `best < v` is `v > best`.
subroutine max_first(nx, ny, a, best, jb, kb)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: a(nx, ny)
  real(8), intent(inout) :: best
  integer, intent(inout) :: jb, kb
  integer :: j, k
  !$translate kernel max_first_k
  do k = 1, ny
    do j = 1, nx
      if (best < a(j, k)) then
        best = a(j, k)
        jb = j
        kb = k
      end if
    end do
  end do
  !$translate end kernel
end subroutine max_first

subroutine max_last(n, a, best, ib)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n)
  real(8), intent(inout) :: best
  integer, intent(inout) :: ib
  integer :: i
  !$translate kernel max_last_k
  do i = 1, n
    if (a(i) >= best) then
      best = a(i)
      ib = i
    end if
  end do
  !$translate end kernel
end subroutine max_last

program argmin
  implicit none
  integer, parameter :: nx = 300, ny = 77
  real(8) :: a(nx, ny), best, nan, zero
  integer :: j, k, jb, kb, cell, t
  zero = 0.0d0
  nan = zero/zero
  do t = 1, 6
    do k = 1, ny
      do j = 1, nx
        a(j, k) = 1.0d0 + mod(j*7 + k*13, 101)*0.25d0
      end do
    end do
    select case (t)
    case (2)            ! ties at the first, a middle and the last cell; NaNs around them
      a(1, 1) = 0.5d0; a(150, 40) = 0.5d0; a(nx, ny) = 0.5d0
      a(2, 1) = nan; a(nx, 1) = nan; a(7, 77) = nan
      a(1, 2) = 26.25d0; a(299, 76) = 26.25d0
    case (3)            ! ties in the middle only, in different work groups
      a(257, 3) = -2.0d0; a(13, 60) = -2.0d0; a(256, 60) = -2.0d0
    case (4)            ! every value NaN but one zero of each sign
      a = nan
      a(40, 9) = -zero; a(41, 9) = zero; a(3, 50) = zero
    case (5)            ! every value NaN
      a = nan
    end select
    best = 1.0d300; jb = -1; kb = -1
    if (t == 6) best = 1.0d0   ! nothing beats it: 1.0 is the smallest value
    call min_first(nx, ny, a, 1.0d0, best, jb, kb)
    write (*, '(a, i2, es26.17, 2i6)') 'min <  ', t, best, jb, kb
    best = 1.0d300; cell = -1
    if (t == 6) best = 1.0d0   ! ties with the smallest value: `<=` takes the last
    call min_last(nx, ny, a, best, cell)
    write (*, '(a, i2, es26.17, i8)') 'min <= ', t, best, cell
    best = -1.0d300; jb = -1; kb = -1
    if (t == 6) best = 1.0d9
    call max_first(nx, ny, a, best, jb, kb)
    write (*, '(a, i2, es26.17, 2i6)') 'max >  ', t, best, jb, kb
    best = -1.0d300; jb = -1
    call max_last(nx*ny, a, best, jb)
    write (*, '(a, i2, es26.17, i8)') 'max >= ', t, best, jb
  end do
end program argmin
