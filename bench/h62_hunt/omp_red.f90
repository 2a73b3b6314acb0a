! translate-test: translate=--directives=openmp rtol=1e-13
program omp_red
  implicit none
  integer, parameter :: n = 61, m = 17
  real(8) :: a(n, m), err, s, smax
  integer :: i, j, imax, mask, ix, cnt
  logical :: allpos, anyneg
  do j = 1, m
    do i = 1, n
      a(i, j) = sin(dble(i * j) * 0.1d0) + 0.2d0
    end do
  end do
  err = 0.0d0
  imax = -huge(1)
  mask = 0
  ix = 0
  allpos = .true.
  anyneg = .false.
  cnt = 0
  !$omp parallel do default(none) shared(a) private(i) &
  !$omp& reduction(max:err, imax) reduction(ior:mask) reduction(ieor:ix) &
  !$omp& reduction(.and.:allpos) reduction(.or.:anyneg) reduction(+:cnt) schedule(guided) if(n > 10)
  do j = 1, m
    do i = 1, n
      err = max(err, abs(a(i, j)))
      imax = max(imax, int(a(i, j) * 100.0d0))
      mask = ior(mask, 2 ** mod(i + j, 20))
      ix = ieor(ix, i * j)
      allpos = allpos .and. (a(i, j) > -0.9d0)
      anyneg = anyneg .or. (a(i, j) < -0.7d0)
      if (a(i, j) > 0.5d0) cnt = cnt + 1
    end do
  end do
  !$omp end parallel do
  s = 0.0d0
  smax = -1.0d0
  !$omp target teams distribute parallel do reduction(+:s) map(to:a) collapse(2)
  do j = 1, m
    do i = 1, n
      s = s + a(i, j) * dble(i)
    end do
  end do
  !$omp end target teams distribute parallel do
  !$omp parallel do simd reduction(max:smax) num_threads(4)
  do i = 1, n
    smax = max(smax, a(i, 3) - a(i, 4))
  end do
  write(*, '(ES24.16, 4I12)') err, imax, mask, ix, cnt
  write(*, '(2L3, 2ES24.16)') allpos, anyneg, s, smax
end program omp_red
