! translate-test: translate=--directives=openmp
program intr1
  implicit none
  integer, parameter :: dp = kind(1.0d0), n = 24, m = 6
  real(dp) :: a(m, n), r(n, 12)
  integer :: ir(n, 6), j, k
  logical :: lg(n, 3)
  do j = 1, n
    do k = 1, m
      a(k, j) = sin(0.7_dp * j * k) * 10.0_dp ** (mod(j, 5) - 2)
    end do
  end do
  !$omp parallel do private(k)
  do j = 1, n
    r(j, 1) = maxval(abs(a(:, j)))
    r(j, 2) = sum(a(:, j) * a(:, j))
    r(j, 3) = dim(a(1, j), a(2, j)) + epsilon(1.0_dp) * j + tiny(1.0_dp)
    r(j, 4) = hypot(a(1, j), a(3, j)) + atan2(a(2, j), a(4, j)) + log10(abs(a(5, j)) + 1)
    r(j, 5) = real(exponent(a(1, j)), dp) + fraction(a(2, j)) + aint(a(3, j) * 3.7_dp)
    r(j, 6) = product(1.0_dp + 0.01_dp * a(1:3, j)) + minval(a(:, j))
    r(j, 7) = dot_product(a(1:3, j), a(4:6, j)) + erf(a(1, j) * 0.1_dp) + gamma(1.5_dp + abs(a(2, j)) * 0.01_dp)
    r(j, 8) = sinh(a(1, j) * 0.1_dp) + cosh(a(2, j) * 0.1_dp) + tanh(a(3, j)) + asin(a(4, j) / (1 + abs(a(4, j))))
    r(j, 9) = mod(a(1, j), 0.3_dp) + modulo(a(2, j), 0.3_dp) + sign(a(3, j), a(4, j)) + max(a(1, j), a(2, j), a(3, j))
    r(j, 10) = exp(-abs(a(5, j))) + sqrt(abs(a(6, j))) + abs(a(1, j)) ** 1.5_dp + a(2, j) ** 3
    r(j, 11) = real(count(a(:, j) > 0.0_dp), dp) + merge(1.0_dp, 2.0_dp, any(a(:, j) < -1.0_dp))
    r(j, 12) = huge(1.0_dp) * 1.0e-300_dp + floor(a(1, j)) + ceiling(a(2, j)) + nint(a(3, j) * 2.5_dp)
    ir(j, 1) = iand(j, 5) + ior(j, 8) + ieor(j, 3) + ishft(j, -1) + ibset(0, mod(j, 5))
    ir(j, 2) = size(a, 1) + lbound(a, 2) * 10 + ubound(a, 1)
    ir(j, 3) = int(a(1, j) * 100) + idnint(a(2, j) * 100) + int(anint(a(3, j)))
    ir(j, 4) = max0(j, 7) + min0(j, 12) + isign(j, -3) + iabs(-j) + mod(-j, 7) + modulo(-j, 7)
    ir(j, 5) = popcnt(j) + merge(1, 0, btest(j, 2))
    ir(j, 6) = j / 3 * 3 + (-j) / 4 + 2 ** mod(j, 10) + (-2) ** mod(j, 5)
    lg(j, 1) = all(a(:, j) > -5.0_dp)
    lg(j, 2) = a(1, j) > a(2, j) .neqv. a(3, j) > a(4, j)
    lg(j, 3) = .not. (a(1, j) >= 0.0_dp .and. j > 10) .or. mod(j, 3) == 0
  end do
  do j = 1, n, 5
    print '(12es12.4)', r(j, :)
    print '(6i12, 3l2)', ir(j, :), lg(j, :)
  end do
  print '(12es24.16)', (sum(r(:, k)), k = 1, 12)
end program intr1
