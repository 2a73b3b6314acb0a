! translate-test: translate=--directives=openmp,translate
! Livermore loop 19 as the original writes it: the backward sweep sets the first sweep's DO
! variable k (k = n - i + 1) in the same region.
program lfk19_dovar
  implicit none
  integer, parameter :: n = 101
  real(8) :: sa(n), sb(n), b5(n), stb5
  integer :: i, k
  do k = 1, n
    sa(k) = 0.01d0 * mod(k, 7)
    sb(k) = 0.5d0 + 0.01d0 * mod(k, 9)
  end do
  stb5 = 0.0136d0
  !$translate kernel lfk19
  do k = 1, n
    b5(k) = sa(k) + stb5 * sb(k)
    stb5 = b5(k) - stb5
  end do
  do i = 1, n
    k = n - i + 1
    b5(k) = sa(k) + stb5 * sb(k)
    stb5 = b5(k) - stb5
  end do
  !$translate end kernel
  write (*, '(2es24.15)') sum(b5), stb5
end program lfk19_dovar
