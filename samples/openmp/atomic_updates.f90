! translate-test: rtol=1e-12 cppflags=-fopenmp translate=--directives=openmp
!
! Updates through indices known only at run time, each under '!$omp atomic': a histogram
! (exact in any order), a scatter-add of doubles onto shared nodes (summed in another order
! on the device, so it may round differently: hence the tolerance) and a maximum per bin.
! Every access to hist, rhs and vmax in their loops is an atomic update with one operator,
! so the iterations run in parallel with atomic updates of the elements.
module assembly
contains
  subroutine deposit(n, nb, key, hist, ne, nn, conn, w, rhs, vmax)
    integer, intent(in) :: n, nb, ne, nn
    integer, intent(in) :: key(n), conn(3, ne)
    integer, intent(inout) :: hist(nb)
    real(8), intent(in) :: w(ne)
    real(8), intent(inout) :: rhs(nn), vmax(nb)
    integer :: i, e, k
    !$omp parallel do
    do i = 1, n
       !$omp atomic
       hist(key(i)) = hist(key(i)) + 1
    end do
    !$omp end parallel do
    !$omp parallel do private(k)
    do e = 1, ne
       do k = 1, 3
          !$omp atomic update
          rhs(conn(k, e)) = rhs(conn(k, e)) + w(e) * k
          !$omp end atomic
       end do
    end do
    !$omp parallel do
    do i = 1, n
       !$omp atomic update
       vmax(key(i)) = max(vmax(key(i)), mod(i * i, 9973) * 1d-3 - key(i))
    end do
  end subroutine
end module

program main
  use assembly
  implicit none
  integer, parameter :: n = 10000, nb = 17, ne = 3000, nn = 1001
  integer :: key(n), hist(nb), conn(3, ne), i, e
  real(8) :: w(ne), rhs(nn), vmax(nb), s
  do i = 1, n
     key(i) = mod(i * 7919 + i / 3, nb) + 1
  end do
  do e = 1, ne
     conn(1, e) = mod(e, nn) + 1
     conn(2, e) = mod(e * 13 + 1, nn) + 1
     conn(3, e) = mod(e / 2, nn) + 1
     w(e) = 0.1d0 + 0.001d0 * mod(e, 97)
  end do
  hist = 0
  rhs = 0
  vmax = -100
  call deposit(n, nb, key, hist, ne, nn, conn, w, rhs, vmax)
  print '(17i6)', hist
  s = 0
  do i = 1, nn
     s = s + rhs(i) * mod(i, 5)
  end do
  print '(3es24.15)', s, rhs(1), rhs(nn)
  print '(6f10.3)', vmax
end program
