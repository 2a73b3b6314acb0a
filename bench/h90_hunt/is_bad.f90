! translate-test: translate=--directives=openmp,translate
! NPB IS's histogram and prefix sum as a careless port marks them: the histogram without
! `omp atomic`, the bucket prefix sum under `parallel do`.  Both refused at the directive.
program is_bad
  implicit none
  integer, parameter :: nkeys = 1024, maxkey = 64
  integer :: key(nkeys), buff(0:maxkey - 1), i, b
  do i = 1, nkeys
    key(i) = mod(i * 37 + i / 7, maxkey)
  end do
  buff = 0
  !$omp parallel do
  do i = 1, nkeys
    buff(key(i)) = buff(key(i)) + 1
  end do
  !$omp parallel do
  do b = 1, maxkey - 1
    buff(b) = buff(b) + buff(b - 1)
  end do
  write (*, '(3i8)') buff(0), buff(maxkey / 2), buff(maxkey - 1)
end program is_bad
