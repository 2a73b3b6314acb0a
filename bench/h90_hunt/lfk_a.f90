! translate-test: translate=--directives=openmp,translate rtol=1e-12
! Livermore loops 1-12 as an OpenMP port marks them: the parallel kernels under
! `parallel do` (with private/reduction clauses), the recurrences (5, 6, 11) in translate
! regions without a mapping (they must stay sequential and match bit for bit).
program lfk_a
  implicit none
  integer, parameter :: n = 1001, nw = 101
  real(8) :: x(2 * n + 20), y(n + 20), z(n + 20), zx(n + 20), u(n + 20), v(2 * n + 20)
  real(8) :: xz(2 * n + 20), w(nw), b(nw, nw), px(25, n), cx(25, n)
  real(8) :: u1(5, nw + 1, 2), u2(5, nw + 1, 2), u3(5, nw + 1, 2), du1(nw), du2(nw), du3(nw)
  real(8) :: q, r, t, temp, ar, br, cr, a11, a12, a13, a21, a22, a23, a31, a32, a33, sig
  real(8) :: dm22, dm23, dm24, dm25, dm26, dm27, dm28, c0
  integer, parameter :: nl1 = 1, nl2 = 2   ! the planes (variables: see lfk_planes.f90)
  integer :: k, i, j, ii, ipnt, ipntp, lw, m, kx, ky, l
  x = 0.0d0
  do k = 1, 2 * n + 20
    xz(k) = 0.1d0 + 0.001d0 * mod(k, 23)
  end do
  do k = 1, n + 20
    y(k) = 1.0d0 + 0.001d0 * mod(k * 7, 13)
    z(k) = 0.5d0 + 0.002d0 * mod(k * 3, 17)
    zx(k) = 0.25d0 + 0.003d0 * mod(k * 5, 11)
    u(k) = 0.125d0 + 0.001d0 * mod(k * 11, 19)
    v(k) = 0.01d0 * mod(k, 7)
  end do
  w = 0.0d0
  w(1) = 0.01d0
  do j = 1, nw
    do i = 1, nw
      b(i, j) = 0.0001d0 * mod(i + 2 * j, 9)
    end do
  end do
  do j = 1, n
    do i = 1, 25
      px(i, j) = 0.01d0 * mod(i * j, 7)
      cx(i, j) = 0.02d0 * mod(i + j, 5)
    end do
  end do
  do l = 1, 2
    do j = 1, nw + 1
      do i = 1, 5
        u1(i, j, l) = 0.1d0 * mod(i + j + l, 4)
        u2(i, j, l) = 0.2d0 * mod(i * j + l, 3)
        u3(i, j, l) = 0.3d0 * mod(i + 2 * j, 5)
      end do
    end do
  end do
  q = 0.5d0; r = 0.25d0; t = 0.125d0

  ! kernel 1: hydro fragment
  !$omp parallel do
  do k = 1, n
    x(k) = q + y(k) * (r * zx(k + 10) + t * zx(k + 11))
  end do
  write (*, '(a, es24.15)') 'k1 ', sum(x(1:n))

  ! kernel 2: ICCG excerpt (each level's loop is parallel; i computed from k; x reaches 1024)
  do k = 1, 2 * n + 20
    v(k) = 0.001d0 * mod(k, 5)
  end do
  ii = 512
  ipntp = 0
  do while (ii > 1)
    ipnt = ipntp
    ipntp = ipntp + ii
    ii = ii / 2
    !$omp parallel do private(i)
    do k = ipnt + 2, ipntp, 2
      i = ipntp + 1 + (k - ipnt) / 2
      x(i) = x(k) - v(k) * x(k - 1) - v(k + 1) * x(k + 1)
    end do
  end do
  write (*, '(a, es24.15)') 'k2 ', sum(x(1:n))

  ! kernel 3: inner product
  q = 0.0d0
  !$omp parallel do reduction(+:q)
  do k = 1, n
    q = q + z(k) * x(k)
  end do
  write (*, '(a, es24.15)') 'k3 ', q

  ! kernel 4: banded linear equations (three rows, each an inner dot with an induction lw)
  m = (1001 - 7) / 2  ! a run-time step: the directive is left as written (warning)
  !$omp parallel do private(lw, temp, j)
  do k = 7, 1001, m
    lw = k - 6
    temp = x(k - 1)
    do j = 5, n, 5
      temp = temp - xz(lw) * y(j)
      lw = lw + 1
    end do
    x(k - 1) = y(5) * temp
  end do
  write (*, '(a, 3es24.15)') 'k4 ', x(6), x(503), x(1000)

  ! kernel 5: tri-diagonal elimination, below diagonal (a recurrence)
  !$translate kernel lfk5
  do i = 2, n
    x(i) = z(i) * (y(i) - x(i - 1))
  end do
  !$translate end kernel
  write (*, '(a, es24.15)') 'k5 ', sum(x(1:n))

  ! kernel 6: general linear recurrence equations
  !$translate kernel lfk6
  do i = 2, nw
    w(i) = 0.01d0
    do k = 1, i - 1
      w(i) = w(i) + b(i, k) * w(i - k)
    end do
  end do
  !$translate end kernel
  write (*, '(a, es24.15)') 'k6 ', sum(w(2:nw))

  ! kernel 7: equation of state fragment
  !$omp parallel do
  do k = 1, n
    x(k) = u(k) + r * (z(k) + r * y(k)) + t * (u(k + 3) + r * (u(k + 2) + r * u(k + 1)) &
         + t * (u(k + 6) + q * (u(k + 5) + q * u(k + 4))))
  end do
  write (*, '(a, es24.15)') 'k7 ', sum(x(1:n))

  ! kernel 8: ADI integration (ky parallel inside the kx loop)
  a11 = 0.1d0; a12 = 0.2d0; a13 = 0.3d0; a21 = 0.15d0; a22 = 0.25d0; a23 = 0.35d0
  a31 = 0.05d0; a32 = 0.06d0; a33 = 0.07d0; sig = 0.5d0
  do kx = 2, 3
    !$omp parallel do
    do ky = 2, nw
      du1(ky) = u1(kx, ky + 1, nl1) - u1(kx, ky - 1, nl1)
      du2(ky) = u2(kx, ky + 1, nl1) - u2(kx, ky - 1, nl1)
      du3(ky) = u3(kx, ky + 1, nl1) - u3(kx, ky - 1, nl1)
      u1(kx, ky, nl2) = u1(kx, ky, nl1) + a11 * du1(ky) + a12 * du2(ky) + a13 * du3(ky) &
          + sig * (u1(kx + 1, ky, nl1) - 2.0d0 * u1(kx, ky, nl1) + u1(kx - 1, ky, nl1))
      u2(kx, ky, nl2) = u2(kx, ky, nl1) + a21 * du1(ky) + a22 * du2(ky) + a23 * du3(ky) &
          + sig * (u2(kx + 1, ky, nl1) - 2.0d0 * u2(kx, ky, nl1) + u2(kx - 1, ky, nl1))
      u3(kx, ky, nl2) = u3(kx, ky, nl1) + a31 * du1(ky) + a32 * du2(ky) + a33 * du3(ky) &
          + sig * (u3(kx + 1, ky, nl1) - 2.0d0 * u3(kx, ky, nl1) + u3(kx - 1, ky, nl1))
    end do
  end do
  write (*, '(a, 3es24.15)') 'k8 ', sum(u1(:, :, 2)), sum(u2(:, :, 2)), sum(u3(:, :, 2))

  ! kernel 9: integrate predictors
  dm22 = 0.22d0; dm23 = 0.23d0; dm24 = 0.24d0; dm25 = 0.25d0; dm26 = 0.26d0
  dm27 = 0.27d0; dm28 = 0.28d0; c0 = 0.5d0
  !$omp parallel do
  do i = 1, n
    px(1, i) = dm28 * px(13, i) + dm27 * px(12, i) + dm26 * px(11, i) + dm25 * px(10, i) &
        + dm24 * px(9, i) + dm23 * px(8, i) + dm22 * px(7, i) + c0 * (px(5, i) + px(6, i)) &
        + px(3, i)
  end do
  write (*, '(a, es24.15)') 'k9 ', sum(px(1, :))

  ! kernel 10: difference predictors (private scalars)
  !$omp parallel do private(ar, br, cr)
  do i = 1, n
    ar = cx(5, i)
    br = ar - px(5, i)
    px(5, i) = ar
    cr = br - px(6, i)
    px(6, i) = br
    ar = cr - px(7, i)
    px(7, i) = cr
    br = ar - px(8, i)
    px(8, i) = ar
    cr = br - px(9, i)
    px(9, i) = br
    ar = cr - px(10, i)
    px(10, i) = cr
    br = ar - px(11, i)
    px(11, i) = ar
    cr = br - px(12, i)
    px(12, i) = br
    px(14, i) = cr - px(13, i)
    px(13, i) = cr
  end do
  write (*, '(a, 2es24.15)') 'k10', sum(px(5:14, :)), px(14, n)

  ! kernel 11: first sum (a prefix sum)
  !$translate kernel lfk11
  x(1) = y(1)
  do k = 2, n
    x(k) = x(k - 1) + y(k)
  end do
  !$translate end kernel
  write (*, '(a, es24.15)') 'k11', x(n)

  ! kernel 12: first difference
  !$omp parallel do
  do k = 1, n
    x(k) = y(k + 1) - y(k)
  end do
  write (*, '(a, es24.15)') 'k12', sum(x(1:n))
end program lfk_a
