! translate-test: translate=--directives=openmp rtol=1e-13
! A neighbour list as MD and HPCG codes keep one: nlist(k, i) for k <= numneigh(i), the
! slots past each atom's count never read (here set to -999 to stand for whatever the
! memory holds).  The scans cover whole columns, so their range says nothing about the
! elements read: the call must not stop on the unread slots.
program ragged
  implicit none
  integer, parameter :: n = 64, maxn = 8
  integer :: nlist(maxn, n), numneigh(n), i, j, k
  real(8) :: x(n), f(n), s
  nlist = -999
  do i = 1, n
    x(i) = 0.25d0 * i
    numneigh(i) = mod(i, 5) + 1
    do k = 1, numneigh(i)
      nlist(k, i) = mod(i * 7 + k * 3, n) + 1
    end do
  end do
  !$omp parallel do private(k, j, s)
  do i = 1, n
    s = 0.0d0
    do k = 1, numneigh(i)
      j = nlist(k, i)
      s = s + x(j) - x(i)
    end do
    f(i) = s
  end do
  write(*, '(3ES24.16)') f(1), f(17), f(n)
end program ragged
