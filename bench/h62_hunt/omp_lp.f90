! translate-test: translate=--directives=openmp rtol=1e-13
program omp_lp
  implicit none
  integer, parameter :: n = 37, m = 23, l = 9
  real(8) :: a(n, m, l), b(n, m, l), x(n), y(n), s, t, p, q
  integer :: i, j, k, last, ilast, cnt, imx
  real(8) :: scale, tl
  do k = 1, l
    do j = 1, m
      do i = 1, n
        a(i, j, k) = dble(mod(i * 3 + j * 5 + k, 13)) - 6.0d0
      end do
    end do
  end do
  scale = 0.5d0
  tl = -1.0d0
  !$omp parallel do collapse(3) default(none) shared(a, b) firstprivate(scale) schedule(static, 4)
  do k = 1, l
    do j = 1, m
      do i = 1, n
        b(i, j, k) = a(i, j, k) * scale + dble(i + j + k)
      end do
    end do
  end do
  !$omp end parallel do
  !$omp parallel do lastprivate(tl, ilast) schedule(dynamic)
  do i = 1, n
    tl = a(i, 2, 3) * 2.0d0
    ilast = i * 2
    x(i) = tl + 1.0d0
  end do
  !$omp parallel do private(j) lastprivate(last)
  do i = 1, n
    do j = 1, m
      last = i + j
    end do
    y(i) = dble(last)
  end do
  s = 0.0d0
  t = 1.0d0
  p = -huge(1.0d0)
  q = huge(1.0d0)
  cnt = 0
  !$omp parallel do reduction(+:s, cnt) reduction(*:t) reduction(max:p) reduction(min:q)
  do i = 1, n
    s = s + x(i)
    t = t * (1.0d0 + 0.01d0 * y(i) / 100.0d0)
    p = max(p, x(i))
    q = min(q, x(i))
    if (x(i) > 0.0d0) cnt = cnt + 1
  end do
  write(*, '(4ES24.16)') b(1, 1, 1), b(n, m, l), b(17, 11, 5), sum(b)
  write(*, '(2ES24.16, 2I6)') tl, x(n), ilast, last
  write(*, '(4ES24.16, I6)') s, t, p, q, cnt
  write(*, '(3ES24.16)') y(1), y(n), sum(y)
end program omp_lp
