! translate-test: translate=--directives=openmp
program main
  implicit none
  integer, parameter :: n = 301
  real(8) :: x(n), a(40, 40), t
  logical :: la, lo, le
  integer :: i, j, ia, io, ix, k, lj
  do i = 1, n
     x(i) = sin(0.37d0 * i)
  end do
  la = .true.; lo = .false.; le = .true.; ia = -1; io = 0; ix = 5
  !$omp parallel do reduction(.and.:la) reduction(.or.:lo) reduction(.eqv.:le) &
  !$omp& reduction(ior:io) reduction(ieor:ix) reduction(iand:ia)
  do i = 1, n
     la = la .and. (x(i) > -0.99d0)
     lo = lo .or. (x(i) > 0.9999d0)
     le = le .eqv. (x(i) > 0)
     io = ior(io, ishft(1, mod(i, 29)))
     ix = ieor(ix, i * 7919)
     ia = iand(ia, not(ishft(1, mod(i, 31))))
  end do
  print '(3l2, 3i12)', la, lo, le, io, ix, ia
  !$omp parallel do lastprivate(t, k)
  do i = n, 1, -2
     t = x(i) * 3
     k = i
  end do
  print '(es24.16, i6)', t, k
  a = 0
  !$omp parallel do collapse(2) lastprivate(t, lj)
  do j = 1, 40
     do i = 1, j
        a(i, j) = x(i + j) - i
        t = a(i, j) * 2
        lj = i * 100 + j
     end do
  end do
  print '(2es24.16, i8)', sum(a), t, lj
end program
