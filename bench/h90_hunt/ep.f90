! translate-test: translate=--directives=openmp,translate rtol=1e-12
! NPB EP's shape: batches of pseudo-random pairs (randlc's exact double LCG, each batch
! seeded by skipping ahead), Gaussian pairs by acceptance-rejection, a 10-bin histogram q(l)
! and the sums sx, sy.  OpenMP as NPB-OMP writes it: the batch loop parallel with private
! work array x and reduction(+:sx, sy, q).
program ep
  implicit none
  integer, parameter :: nk = 256, nb = 16, nq = 10
  real(8), parameter :: a = 1220703125.0d0, s = 271828183.0d0
  real(8) :: x(2 * nk), q(0:nq - 1), sx, sy, t1, t2, t3, t4, x1, x2, seed, an, aa
  integer :: k, i, l, kk, ik
  an = a
  do i = 1, 9          ! an = a**(2*nk) mod 2**46 (nk = 2**8)
    t1 = randlc(an, an)
  end do
  sx = 0.0d0
  sy = 0.0d0
  q = 0.0d0
  !$omp parallel do private(x, t1, t2, t3, t4, x1, x2, seed, aa, kk, ik, i, l) &
  !$omp reduction(+:sx, sy, q)
  do k = 1, nb
    seed = s
    aa = an
    kk = k - 1
    do i = 1, 30         ! skip ahead (NPB exits at ik = 0: ep_exit.f90; no-ops after it)
      ik = kk / 2
      if (2 * ik /= kk) t1 = randlc(seed, aa)
      if (ik /= 0) t1 = randlc(aa, aa)
      kk = ik
    end do
    do i = 1, 2 * nk
      x(i) = randlc(seed, a)
    end do
    do i = 1, nk
      x1 = 2.0d0 * x(2 * i - 1) - 1.0d0
      x2 = 2.0d0 * x(2 * i) - 1.0d0
      t1 = x1 * x1 + x2 * x2
      if (t1 <= 1.0d0) then
        t2 = sqrt(-2.0d0 * log(t1) / t1)
        t3 = x1 * t2
        t4 = x2 * t2
        l = int(max(abs(t3), abs(t4)))
        q(l) = q(l) + 1.0d0
        sx = sx + t3
        sy = sy + t4
      end if
    end do
  end do
  write (*, '(2es24.15)') sx, sy
  write (*, '(10f8.0)') q
contains
  real(8) function randlc(x, a)
    real(8), intent(inout) :: x
    real(8), intent(in) :: a
    real(8), parameter :: r23 = 0.5d0**23, r46 = r23 * r23, t23 = 2.0d0**23, t46 = t23 * t23
    real(8) :: a1, a2, x1, x2, z, t1, t2, t3, t4
    t1 = r23 * a
    a1 = dble(int(t1))
    a2 = a - t23 * a1
    t1 = r23 * x
    x1 = dble(int(t1))
    x2 = x - t23 * x1
    t1 = a1 * x2 + a2 * x1
    t2 = dble(int(r23 * t1))
    z = t1 - t23 * t2
    t3 = t23 * z + a2 * x2
    t4 = dble(int(r46 * t3))
    x = t3 - t46 * t4
    randlc = r46 * x
  end function randlc
end program ep
