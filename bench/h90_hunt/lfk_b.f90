! translate-test: translate=--directives=openmp,translate rtol=1e-12
! Livermore loops 13-24 as an OpenMP port marks them: PIC scatters with `omp atomic`,
! casual Fortran and explicit hydro under `parallel do` with private scalars, Planckian
! distribution (exp), and the recurrences and searches (16, 17, 19, 20, 23, 24) in translate
! regions without a mapping (sequential, bit for bit); 21 (matrix*matrix) mapped
! automatically.
program lfk_b
  implicit none
  integer, parameter :: n = 1001, np = 64, jn = 101, kn = 6
  real(8) :: p(4, np), bb(64, 64), cc(64, 64), h(64, 64), yy(n + 40), zz1(n + 40)
  real(8) :: ex(n + 40), dex(n + 40), grd(n + 40), vx(n), xx(n + 1), xi(n), ex1(n), dex1(n)
  real(8) :: rx(n), rh(2100)
  integer :: ir(n), ix(n), e(96), f(96), zone(n + 1)
  real(8) :: vy(jn + 1, 8), vh(jn + 1, 8), vf(jn + 1, 8), vg(jn + 1, 8), vs(jn + 1, 8)
  real(8) :: za(jn + 1, kn + 1), zb(jn + 1, kn + 1), zr(jn + 1, kn + 1), zu(jn + 1, kn + 1)
  real(8) :: zv(jn + 1, kn + 1), zz(jn + 1, kn + 1), zp(jn + 1, kn + 1), zq(jn + 1, kn + 1)
  real(8) :: zm(jn + 1, kn + 1)
  real(8) :: vlr(n), vlin(n), vxne(n), vxnd(n), ve3(n), vsp(n), vstp(n), plan(n + 1)
  real(8) :: sa(n), sb(n), b5(n), x(n + 1), y(n + 1), g(n + 1), u(n), v(n), w(n), z(n)
  real(8) :: vx20(n), px(25, n), vv(25, 25), cx(25, n), uu(n), xw(n)
  real(8) :: flx, t, r, s, ar, br, qa, e3, e6, xnm, xnc, xnei, scale, stb5, di, dn, dk
  real(8) :: xmin, tt, ss
  integer :: ip, i1, j1, i2, j2, k, j, i, m, kfound, mloc, kb
  do ip = 1, np
    p(1, ip) = 1.0d0 + mod(ip * 7, 60)
    p(2, ip) = 2.0d0 + mod(ip * 5, 59)
    p(3, ip) = 0.1d0 * mod(ip, 3)
    p(4, ip) = 0.2d0 * mod(ip, 5)
  end do
  do j = 1, 64
    do i = 1, 64
      bb(i, j) = 0.5d0 * mod(i + j, 3)
      cc(i, j) = 0.25d0 * mod(i * j, 4)
      h(i, j) = 0.0d0
    end do
  end do
  do k = 1, n + 40
    yy(k) = 0.01d0 * mod(k, 17)
    zz1(k) = 0.02d0 * mod(k, 13)
    ex(k) = 0.001d0 * mod(k, 7)
    dex(k) = 0.002d0 * mod(k, 5)
    grd(k) = 1.0d0 + mod(k * 3, 40)
  end do
  do k = 1, 96
    e(k) = mod(k, 3)
    f(k) = mod(k, 2)
  end do

  ! kernel 13: 2-D particle in cell (scatter into h: atomic)
  !$omp parallel do private(i1, j1, i2, j2)
  do ip = 1, np
    i1 = int(p(1, ip))
    j1 = int(p(2, ip))
    i1 = 1 + iand(i1, 63)
    j1 = 1 + iand(j1, 63)
    p(3, ip) = p(3, ip) + bb(i1, j1)
    p(4, ip) = p(4, ip) + cc(i1, j1)
    p(1, ip) = p(1, ip) + p(3, ip)
    p(2, ip) = p(2, ip) + p(4, ip)
    i2 = int(p(1, ip))
    j2 = int(p(2, ip))
    i2 = iand(i2, 63)
    j2 = iand(j2, 63)
    p(1, ip) = p(1, ip) + yy(i2 + 32)
    p(2, ip) = p(2, ip) + zz1(j2 + 32)
    i2 = i2 + e(i2 + 32)
    j2 = j2 + f(j2 + 32)
    !$omp atomic
    h(i2 + 1, j2 + 1) = h(i2 + 1, j2 + 1) + 1.0d0
  end do
  write (*, '(a, 3es24.15)') 'k13', sum(p), sum(h), h(5, 7)

  ! kernel 14: 1-D particle in cell
  flx = 0.001d0
  !$omp parallel do
  do k = 1, n
    vx(k) = 0.0d0
    xx(k) = 0.0d0
    ix(k) = int(grd(k))
    xi(k) = dble(ix(k))
    ex1(k) = ex(ix(k))
    dex1(k) = dex(ix(k))
  end do
  !$omp parallel do
  do k = 1, n
    vx(k) = vx(k) + ex1(k) + (xx(k) - xi(k)) * dex1(k)
    xx(k) = xx(k) + vx(k) + flx
    ir(k) = int(xx(k))
    rx(k) = xx(k) - ir(k)
    ir(k) = iand(ir(k), 2047) + 1
    xx(k) = rx(k) + ir(k)
  end do
  rh = 0.0d0
  !$omp parallel do
  do k = 1, n
    !$omp atomic
    rh(ir(k)) = rh(ir(k)) + 1.0d0 - rx(k)
    !$omp atomic
    rh(ir(k) + 1) = rh(ir(k) + 1) + rx(k)
  end do
  write (*, '(a, 3es24.15)') 'k14', sum(xx(1:n)), sum(rh), rh(2)

  ! kernel 15: casual Fortran (structured), private t, r, s
  do j = 1, 8
    do k = 1, jn + 1
      vh(k, j) = 1.0d0 + 0.01d0 * mod(k * j, 11)
      vf(k, j) = 0.5d0 + 0.02d0 * mod(k + 3 * j, 7)
      vg(k, j) = 0.25d0 + 0.03d0 * mod(2 * k + j, 5)
      vy(k, j) = 0.0d0
      vs(k, j) = 0.0d0
    end do
  end do
  ar = 0.053d0
  br = 0.073d0
  !$omp parallel do private(k, t, r, s)
  do j = 2, 7
    do k = 2, jn
      if (j >= 7) then
        vy(k, j) = 0.0d0
        cycle
      end if
      if (vh(k, j + 1) > vh(k, j)) then
        t = ar
      else
        t = br
      end if
      if (vf(k, j) < vf(k - 1, j)) then
        r = max(vh(k - 1, j), vh(k - 1, j + 1))
        s = vf(k - 1, j)
      else
        r = max(vh(k, j), vh(k, j + 1))
        s = vf(k, j)
      end if
      vy(k, j) = sqrt(vg(k, j)**2 + r * r) * t / s
      if (k >= jn) then
        vs(k, j) = 0.0d0
        cycle
      end if
      if (vf(k, j) < vf(k, j - 1)) then
        r = max(vg(k, j - 1), vg(k + 1, j - 1))
        s = vf(k, j - 1)
        t = br
      else
        r = max(vg(k, j), vg(k + 1, j))
        s = vf(k, j)
        t = ar
      end if
      vs(k, j) = sqrt(vh(k, j)**2 + r * r) * t / s
    end do
  end do
  write (*, '(a, 2es24.15)') 'k15', sum(vy), sum(vs)

  ! kernel 16: Monte Carlo search (the first zone whose plan falls below a threshold)
  do k = 1, n + 1
    zone(k) = 1 + mod(k * 37, n)
    plan(k) = 10.0d0 - 0.01d0 * mod(k * 13, 1000)
  end do
  tt = 0.02d0
  kfound = 0
  !$translate kernel lfk16
  do k = 1, n
    if (plan(zone(k)) < tt) then
      kfound = k
      exit
    end if
  end do
  !$translate end kernel
  write (*, '(a, i8)') 'k16', kfound

  ! kernel 17: implicit, conditional computation (a scalar recurrence, backwards)
  do k = 1, n
    vlr(k) = 0.1d0 + 0.001d0 * mod(k, 11)
    vlin(k) = 0.2d0 + 0.002d0 * mod(k, 7)
    vxne(k) = 0.3d0 + 0.003d0 * mod(k, 5)
    vsp(k) = 0.4d0 + 0.001d0 * mod(k, 3)
    vstp(k) = 0.05d0 * mod(k, 4)
  end do
  scale = 5.0d0 / 3.0d0
  xnm = 1.0d0 / 3.0d0
  e6 = 1.03d0 / 3.07d0
  !$translate kernel lfk17
  do i = n, 2, -1
    e3 = xnm * vlr(i) + vlin(i)
    xnei = vxne(i)
    vxnd(i) = e6
    xnc = scale * e3
    if (xnm > xnc .or. xnei > xnc) then
      e6 = xnm * vsp(i) + vstp(i)
      vxne(i) = e6
      xnm = e6
      ve3(i) = e6
    else
      ve3(i) = e3
      e6 = e3 + e3 - xnm
      vxne(i) = e3 + e3 - xnei
      xnm = e6
    end if
  end do
  !$translate end kernel
  write (*, '(a, 4es24.15)') 'k17', sum(vxne(2:n)), sum(ve3(2:n)), sum(vxnd(2:n)), xnm

  ! kernel 18: 2-D explicit hydro (three parallel nests)
  do k = 1, kn + 1
    do j = 1, jn + 1
      zp(j, k) = 0.1d0 + 0.01d0 * mod(j + k, 7)
      zq(j, k) = 0.2d0 + 0.01d0 * mod(j * k, 5)
      zr(j, k) = 1.0d0 + 0.01d0 * mod(2 * j + k, 3)
      zm(j, k) = 1.5d0 + 0.02d0 * mod(j + 3 * k, 4)
      zz(j, k) = 0.3d0 + 0.01d0 * mod(j, 9)
      zu(j, k) = 0.01d0 * mod(j + k, 6)
      zv(j, k) = 0.02d0 * mod(j - k + 10, 6)
      za(j, k) = 0.0d0
      zb(j, k) = 0.0d0
    end do
  end do
  t = 0.0037d0
  s = 0.0041d0
  !$omp parallel do private(j)
  do k = 2, kn
    do j = 2, jn
      za(j, k) = (zp(j - 1, k + 1) + zq(j - 1, k + 1) - zp(j - 1, k) - zq(j - 1, k)) &
          * (zr(j, k) + zr(j - 1, k)) / (zm(j - 1, k) + zm(j - 1, k + 1))
      zb(j, k) = (zp(j - 1, k) + zq(j - 1, k) - zp(j, k) - zq(j, k)) &
          * (zr(j, k) + zr(j, k - 1)) / (zm(j, k) + zm(j - 1, k))
    end do
  end do
  !$omp parallel do private(j)
  do k = 2, kn
    do j = 2, jn
      zu(j, k) = zu(j, k) + s * (za(j, k) * (zz(j, k) - zz(j + 1, k)) &
          - za(j - 1, k) * (zz(j, k) - zz(j - 1, k)) - zb(j, k) * (zz(j, k) - zz(j, k - 1)) &
          + zb(j, k + 1) * (zz(j, k) - zz(j, k + 1)))
      zv(j, k) = zv(j, k) + s * (za(j, k) * (zr(j, k) - zr(j + 1, k)) &
          - za(j - 1, k) * (zr(j, k) - zr(j - 1, k)) - zb(j, k) * (zr(j, k) - zr(j, k - 1)) &
          + zb(j, k + 1) * (zr(j, k) - zr(j, k + 1)))
    end do
  end do
  !$omp parallel do private(j)
  do k = 2, kn
    do j = 2, jn
      zr(j, k) = zr(j, k) + t * zu(j, k)
      zz(j, k) = zz(j, k) + t * zv(j, k)
    end do
  end do
  write (*, '(a, 4es24.15)') 'k18', sum(za), sum(zb), sum(zr), sum(zz)

  ! kernel 19: general linear recurrence (a scalar carried forwards, then backwards)
  do k = 1, n
    sa(k) = 0.01d0 * mod(k, 7)
    sb(k) = 0.5d0 + 0.01d0 * mod(k, 9)
  end do
  stb5 = 0.0136d0
  !$translate kernel lfk19
  do k = 1, n
    b5(k) = sa(k) + stb5 * sb(k)
    stb5 = b5(k) - stb5
  end do
  do i = 1, n
    kb = n - i + 1      ! the original reuses k (refused: lfk19_dovar.f90)
    b5(kb) = sa(kb) + stb5 * sb(kb)
    stb5 = b5(kb) - stb5
  end do
  !$translate end kernel
  write (*, '(a, 2es24.15)') 'k19', sum(b5), stb5

  ! kernel 20: discrete ordinates transport (a recurrence through xx(k+1))
  do k = 1, n + 1
    y(k) = 1.0d0 + 0.01d0 * mod(k, 5)
    g(k) = 0.1d0 + 0.01d0 * mod(k, 3)
    x(k) = 0.0d0
    xx(k) = 0.5d0
  end do
  do k = 1, n
    u(k) = 0.1d0 * mod(k, 4)
    v(k) = 0.2d0 + 0.01d0 * mod(k, 6)
    w(k) = 0.3d0
    z(k) = 0.05d0 * mod(k, 8)
    vx20(k) = 1.0d0 + 0.01d0 * mod(k, 2)
  end do
  dk = 0.2d0
  ss = 0.1d0
  tt = 0.6d0
  !$translate kernel lfk20
  do k = 1, n
    di = y(k) - g(k) / (xx(k) + dk)
    dn = 0.2d0
    if (di /= 0.0d0) dn = max(ss, min(z(k) / di, tt))
    x(k) = ((w(k) + v(k) * dn) * xx(k) + u(k)) / (vx20(k) + v(k) * dn)
    xx(k + 1) = (x(k) - xx(k)) * dn + xx(k)
  end do
  !$translate end kernel
  write (*, '(a, 2es24.15)') 'k20', sum(x(1:n)), xx(n + 1)

  ! kernel 21: matrix * matrix product (k outermost, as the original)
  do j = 1, n
    do i = 1, 25
      px(i, j) = 0.0d0
      cx(i, j) = 0.01d0 * mod(i + j, 7)
    end do
  end do
  do j = 1, 25
    do i = 1, 25
      vv(i, j) = 0.02d0 * mod(i * j, 5)
    end do
  end do
  !$translate kernel lfk21
  do k = 1, 25
    do i = 1, 25
      do j = 1, n
        px(i, j) = px(i, j) + vv(i, k) * cx(k, j)
      end do
    end do
  end do
  !$translate end kernel
  write (*, '(a, 2es24.15)') 'k21', sum(px), px(25, n)

  ! kernel 22: Planckian distribution
  do k = 1, n
    uu(k) = 0.1d0 + 0.01d0 * mod(k, 9)
    v(k) = 0.5d0 + 0.01d0 * mod(k, 4)
    xw(k) = 1.0d0 + 0.001d0 * mod(k, 13)
  end do
  !$omp parallel do
  do k = 1, n
    y(k) = uu(k) / v(k)
    w(k) = xw(k) / (exp(y(k)) - 1.0d0)
  end do
  write (*, '(a, es24.15)') 'k22', sum(w)

  ! kernel 23: 2-D implicit hydro (updates in place: sequential in both loops)
  do k = 1, kn + 1
    do j = 1, jn + 1
      za(j, k) = 0.1d0 * mod(j + 2 * k, 7)
      zb(j, k) = 0.1d0 + 0.001d0 * mod(j, 3)
      zr(j, k) = 0.1d0 + 0.001d0 * mod(k, 3)
      zu(j, k) = 0.1d0 + 0.001d0 * mod(j + k, 3)
      zv(j, k) = 0.1d0 + 0.001d0 * mod(j * k, 3)
      zz(j, k) = 0.01d0 * mod(j, 5)
    end do
  end do
  !$translate kernel lfk23
  do j = 2, kn
    do k = 2, jn
      qa = za(k, j + 1) * zr(k, j) + za(k, j - 1) * zb(k, j) + za(k + 1, j) * zu(k, j) &
          + za(k - 1, j) * zv(k, j) + zz(k, j)
      za(k, j) = za(k, j) + 0.175d0 * (qa - za(k, j))
    end do
  end do
  !$translate end kernel
  write (*, '(a, es24.15)') 'k23', sum(za)

  ! kernel 24: location of the first minimum (the original's form, then the value form)
  do k = 1, n
    x(k) = 1.0d0 + 0.001d0 * mod(k * 37, 101)
  end do
  x(n / 2) = -1.0d0
  x(n / 3) = -1.0d0
  !$translate kernel lfk24
  m = 1
  do k = 2, n
    if (x(k) < x(m)) m = k
  end do
  !$translate end kernel
  xmin = x(1)
  mloc = 1
  !$translate kernel lfk24b
  do k = 2, n
    if (x(k) < xmin) then
      xmin = x(k)
      mloc = k
    end if
  end do
  !$translate end kernel
  write (*, '(a, 2i8, es24.15)') 'k24', m, mloc, xmin
end program lfk_b
