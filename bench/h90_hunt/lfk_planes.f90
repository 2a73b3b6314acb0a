! translate-test: translate=--directives=openmp,translate
! Livermore loop 8 (ADI) as the original writes it: the planes nl1 and nl2 are variables set
! just before the loops.  Parallel in ky only if nl1 /= nl2, which the directive's loop
! cannot see: refused with the witness nl1 = nl2 (the fix: make them constants).
program lfk_planes
  implicit none
  integer, parameter :: nw = 101
  real(8) :: u1(5, nw + 1, 2), du1(nw)
  integer :: kx, ky, nl1, nl2
  u1 = 0.5d0
  u1(:, :, 1) = 0.25d0
  nl1 = 1
  nl2 = 2
  do kx = 2, 3
    !$omp parallel do
    do ky = 2, nw
      du1(ky) = u1(kx, ky + 1, nl1) - u1(kx, ky - 1, nl1)
      u1(kx, ky, nl2) = u1(kx, ky, nl1) + 0.1d0 * du1(ky) &
          + 0.5d0 * (u1(kx + 1, ky, nl1) - 2.0d0 * u1(kx, ky, nl1) + u1(kx - 1, ky, nl1))
    end do
  end do
  write (*, '(es24.15)') sum(u1(:, :, 2))
end program lfk_planes
