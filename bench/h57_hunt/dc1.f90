! translate-test: translate=--directives=openmp,openacc rtol=1e-13
program dc1
  implicit none
  integer, parameter :: dp = kind(1.0d0), n = 40, m = 30
  real(dp) :: a(n, m), b(n, m), c(n, m), s
  integer :: i, j
  do concurrent (i = 1:n, j = 1:m)
    a(i, j) = real(i * j, dp) / (i + j)
  end do
  !$omp parallel do simd collapse(2)
  do j = 1, m
    do i = 1, n
      b(i, j) = a(i, j) ** 2 - a(i, j) * 0.5_dp
    end do
  end do
  !$omp end parallel do simd
  !$acc kernels
  c(:, :) = 0.0_dp
  do j = 2, m - 1
    do i = 2, n - 1
      c(i, j) = b(i - 1, j) + b(i + 1, j) - 2 * b(i, j)
    end do
  end do
  !$acc end kernels
  s = 0
  !$omp parallel do reduction(+:s)
  do j = 1, m
    s = s + sum(c(:, j)) + maxval(b(:, j)) - minval(a(2:n-1, j))
  end do
  print '(3es24.16)', sum(b), sum(c), s
end program dc1
