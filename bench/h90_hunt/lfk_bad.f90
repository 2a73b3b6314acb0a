! translate-test: translate=--directives=openmp,translate
! Livermore loops as a careless OpenMP port marks them: every `parallel do` below is wrong
! (a recurrence, a shared accumulator, a scatter without atomic, a shared work array).  Each
! must be refused at its directive with a witness; none may run in parallel.
program lfk_bad
  implicit none
  integer, parameter :: n = 101
  real(8) :: x(n + 1), y(n + 1), z(n + 1), w(n), b(n, n), du(n), u(5, n + 1), h(64)
  real(8) :: q, stb5, sa(n), sb(n), b5(n), za(n + 1, 8), zr(n + 1, 8)
  integer :: i, k, kx, ky, m, ir(n)
  do k = 1, n + 1
    x(k) = 0.01d0 * mod(k, 7)
    y(k) = 1.0d0 + 0.01d0 * mod(k, 5)
    z(k) = 0.5d0 + 0.01d0 * mod(k, 3)
  end do
  do k = 1, n
    w(k) = 0.01d0
    sa(k) = 0.1d0 * mod(k, 4)
    sb(k) = 0.2d0
    ir(k) = 1 + mod(k * 7, 64)
    do i = 1, n
      b(i, k) = 0.001d0 * mod(i + k, 5)
    end do
  end do
  u = 1.0d0
  h = 0.0d0
  za = 0.5d0
  zr = 0.25d0
  ! kernel 3 without its reduction clause: q shared, written by every iteration
  q = 0.0d0
  !$omp parallel do
  do k = 1, n
    q = q + z(k) * x(k)
  end do
  ! kernel 5: tri-diagonal elimination is a recurrence
  !$omp parallel do
  do i = 2, n
    x(i) = z(i) * (y(i) - x(i - 1))
  end do
  ! kernel 6: the outer loop of the general linear recurrence
  !$omp parallel do private(k)
  do i = 2, n
    do k = 1, i - 1
      w(i) = w(i) + b(i, k) * w(i - k)
    end do
  end do
  ! kernel 8: the kx loop, du shared between its iterations
  !$omp parallel do private(ky)
  do kx = 2, 3
    do ky = 2, n
      du(ky) = u(kx, ky + 1) - u(kx, ky - 1)
      u(kx, ky) = u(kx, ky) + 0.1d0 * du(ky)
    end do
  end do
  ! kernel 11: first sum
  !$omp parallel do
  do k = 2, n
    x(k) = x(k - 1) + y(k)
  end do
  ! kernel 14's scatter without atomic
  !$omp parallel do
  do k = 1, n
    h(ir(k)) = h(ir(k)) + y(k)
  end do
  ! kernel 19: stb5 carried (private would be undefined at entry; shared races)
  stb5 = 0.0136d0
  !$omp parallel do
  do k = 1, n
    b5(k) = sa(k) + stb5 * sb(k)
    stb5 = b5(k) - stb5
  end do
  ! kernel 20: a recurrence through x(k+1)
  !$omp parallel do
  do k = 1, n
    x(k + 1) = (x(k) - y(k)) * 0.2d0 + x(k)
  end do
  ! kernel 23: the inner loop of the implicit hydro (reads za(k-1, j) written before)
  do i = 2, 7
    !$omp parallel do
    do k = 2, n
      za(k, i) = za(k, i) + 0.175d0 * (za(k - 1, i) * zr(k, i) + za(k + 1, i) - za(k, i))
    end do
  end do
  ! kernel 24: first minimum with m shared
  m = 1
  !$omp parallel do
  do k = 2, n
    if (x(k) < x(m)) m = k
  end do
  write (*, '(3es24.15, i6)') q, sum(x), sum(h), m
end program lfk_bad
