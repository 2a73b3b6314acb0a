! translate-test: translate=--directives=openmp translate=--all-outputs rtol=1e-13
program omp_crit
  implicit none
  integer, parameter :: n = 50
  real(8) :: a(n), hist(5), big
  integer :: i, cnt, b, imax
  do i = 1, n
    a(i) = sin(dble(i) * 0.37d0) * 3.0d0
  end do
  cnt = 0
  hist = 0.0d0
  big = -1.0d0
  imax = 0
  !$omp parallel do private(b)
  do i = 1, n
    if (a(i) > 1.0d0) then
      !$omp critical (counting)
      cnt = cnt + 1
      !$omp end critical (counting)
    end if
    b = 1 + mod(i, 5)
    !$omp atomic update
    hist(b) = hist(b) + a(i)
    !$omp critical(maxloc)
    if (a(i) > big) then
      big = a(i)
      imax = i
    end if
    !$omp end critical(maxloc)
  end do
  write(*, '(I5, 5ES24.16)') cnt, hist
  write(*, '(ES24.16, I5)') big, imax
end program omp_crit
