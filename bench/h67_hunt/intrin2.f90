program intrin2
  use iso_fortran_env, only: real32, int64
  implicit none
  integer, parameter :: n = 37, m = 5
  real(8) :: a(n, m), s1(m), s2(m), p1(m)
  real(real32) :: f(n, m), fs(m)
  integer :: k(n, m), ks(m), kmx(m), cnt(m)
  logical :: anyn(m), allp(m)
  integer :: i, j
  do j = 1, m
    do i = 1, n
      a(i, j) = sin(dble(i + 3 * j)) * 10.0d0
      f(i, j) = real(a(i, j), real32) * 0.1_real32
      k(i, j) = mod(i * 7 + j * 13, 23) - 11
    end do
  end do
  !$translate kernel ir2
  do j = 1, m
    s1(j) = sum(a(2:n-1, j))
    s2(j) = minval(a(:, j)) + maxval(a(1:n:3, j))
    p1(j) = product(a(1:4, j))
    fs(j) = sum(f(:, j))
    ks(j) = sum(k(:, j))
    kmx(j) = maxval(k(:, j))
    cnt(j) = count(a(:, j) > 2.0d0)
    anyn(j) = any(k(:, j) < -10)
    allp(j) = all(a(:, j) > -10.0d0)
  end do
  !$translate end kernel
  write(*, '(3ES24.16)') s1, s2, p1
  write(*, '(5ES16.7)') fs
  write(*, '(5I8)') ks, kmx, cnt
  write(*, '(5L3)') anyn, allp
end program intrin2
