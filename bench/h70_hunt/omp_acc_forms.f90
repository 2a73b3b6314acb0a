! translate-test: translate=--directives=openmp,openacc rtol=1e-13
! Fortran offload shapes: target teams distribute parallel do simd collapse(2), omp loop,
! taskloop, if clauses; OpenACC serial, kernels with two nests and scalar code, loop seq
! inside parallel loop, loop auto in parallel, parallel loop with private array.
program omp_acc_forms
  implicit none
  integer, parameter :: n = 40, m = 30
  real(8) :: a(n, m), b(n, m), c(n), d(n), w(3), s, t
  integer :: i, j, k
  logical :: big
  big = .true.
  do j = 1, m
    do i = 1, n
      a(i, j) = dble(mod(i * 3 + j, 7)) - 2.0d0
    end do
  end do
  !$omp target teams distribute parallel do simd collapse(2) map(to: a) map(from: b) if(big)
  do j = 1, m
    do i = 1, n
      b(i, j) = a(i, j) * 0.5d0 + dble(j)
    end do
  end do
  !$omp end target teams distribute parallel do simd
  !$omp parallel do if(n > 10) schedule(dynamic)
  do i = 1, n
    c(i) = sum(b(i, :))
  end do
  !$omp end parallel do
  !$omp loop
  do i = 1, n
    d(i) = c(i) * 2.0d0
  end do
  !$acc serial
  s = 0.0d0
  do i = 1, n
    s = s + d(i)
  end do
  !$acc end serial
  !$acc kernels
  do i = 1, n
    c(i) = c(i) + 1.0d0
  end do
  t = c(1)
  do i = 2, n
    d(i) = d(i) + t
  end do
  !$acc end kernels
  !$acc parallel loop gang
  do i = 1, n
    !$acc loop seq
    do k = 2, m
      b(i, k) = b(i, k) + b(i, k - 1)
    end do
  end do
  !$acc parallel
  !$acc loop auto
  do i = 1, n
    c(i) = c(i) * 0.5d0
  end do
  !$acc end parallel
  !$acc parallel loop private(w)
  do i = 1, n
    do k = 1, 3
      w(k) = dble(i + k)
    end do
    d(i) = d(i) + w(1) * w(2) - w(3)
  end do
  print '(5ES24.16)', sum(b), sum(c), sum(d), s, t
end program omp_acc_forms
