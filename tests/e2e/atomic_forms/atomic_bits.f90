! translate-test: translate=--directives=openmp
! Bitwise atomic updates in Fortran (h86): ior, iand, ieor of an integer array element.
program atomic_bits
  implicit none
  integer, parameter :: n = 5000, nb = 32
  integer :: key(n), flags(nb), keep(nb), par(nb), i, b
  do i = 1, n
    key(i) = mod(i * 7919, 10007)
  end do
  flags = 0
  keep = -1
  par = 0
  !$omp parallel do private(b)
  do i = 1, n
    b = mod(key(i), nb) + 1
    !$omp atomic
    flags(b) = ior(flags(b), ishft(1, mod(key(i), 31)))
    !$omp atomic
    keep(b) = iand(keep(b), not(ishft(1, mod(i, 20))))
    !$omp atomic update
    par(b) = ieor(key(i), par(b))
  end do
  !$omp end parallel do
  print '(4i12)', flags(1), flags(7), keep(3), par(5)
  print '(i12)', sum(mod(flags, 1000) + mod(keep, 1000) + mod(par, 1000))
end program
