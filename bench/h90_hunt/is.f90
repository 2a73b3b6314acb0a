! translate-test: translate=--directives=openmp,translate
! NPB IS's shape in Fortran: the key histogram under `parallel do` with `omp atomic`, the
! bucket prefix sum in a translate region (sequential), ranks gathered in parallel, the
! counting sort's scatter in a translate region, verification as an integer reduction.
program is
  implicit none
  integer, parameter :: nkeys = 4096, maxkey = 512
  integer :: key(nkeys), rnk(nkeys), sorted(nkeys), buff(0:maxkey - 1), work(0:maxkey - 1)
  integer :: i, b, r, k, iter, passed, bad
  integer(8) :: seed
  seed = 314159265_8
  do i = 1, nkeys
    k = 0
    do r = 1, 4
      seed = mod(seed * 1103515245_8 + 12345_8, 2147483648_8)
      k = k + int(mod(seed / 65536_8, int(maxkey / 4, 8)))
    end do
    key(i) = k
  end do
  do iter = 1, 3
    key(iter) = iter - 1
    key(iter + 10) = maxkey - iter
    !$omp parallel do
    do b = 0, maxkey - 1
      buff(b) = 0
    end do
    !$omp parallel do
    do i = 1, nkeys
      !$omp atomic
      buff(key(i)) = buff(key(i)) + 1
    end do
    !$translate kernel is_prefix
    do b = 1, maxkey - 1
      buff(b) = buff(b) + buff(b - 1)
    end do
    !$translate end kernel
    !$omp parallel do
    do i = 1, nkeys
      if (key(i) > 0) then
        rnk(i) = buff(key(i) - 1)
      else
        rnk(i) = 0
      end if
    end do
    passed = 0
    !$omp parallel do reduction(+:passed)
    do i = 2, nkeys
      if (key(i) >= key(i - 1) .and. rnk(i) >= rnk(i - 1)) passed = passed + 1
    end do
    write (*, '(a, i2, 5i6)') 'iter', iter, rnk(1), rnk(2), rnk(3), rnk(11), passed
  end do
  work = buff
  !$translate kernel is_scatter
  do i = 1, nkeys
    work(key(i)) = work(key(i)) - 1
    sorted(work(key(i)) + 1) = key(i)
  end do
  !$translate end kernel
  bad = 0
  !$omp parallel do reduction(+:bad)
  do i = 2, nkeys
    if (sorted(i - 1) > sorted(i)) bad = bad + 1
  end do
  write (*, '(a, 4i6)') 'sorted', sorted(1), sorted(nkeys / 2), sorted(nkeys), bad
end program is
