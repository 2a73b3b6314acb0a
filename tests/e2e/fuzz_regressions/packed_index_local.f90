! e2e fuzzer, fourth round (h91), fortran:20016 minimised: an array component of an array of
! derived type subscripted before its component by a local the region sets from the loop
! variable (k = i + 2; a(k)%v(i)).  k was not taken for a value that changes in the region:
! the call passed a(k)%v with the host's k (unset) as one array, and the kernel wrote
! a(k)%v(i) for every i into that one element's component: a silent wrong result.
module mpk
  implicit none
  type t_a
    real(8) :: v(1:4)
  end type t_a
end module mpk

subroutine p(a, b)
  use mpk
  implicit none
  type(t_a), intent(inout) :: a(1:6)
  type(t_a), intent(in) :: b(0:5)
  integer :: i, k
!$translate kernel pk
  do i = 1, 3
    k = i + 2
    a(k)%v(i) = 10 * i + k + b(k - 1)%v(i + 1)
  end do
!$translate end kernel
end subroutine p

program main
  use mpk
  implicit none
  type(t_a) :: a(1:6), b(0:5)
  integer :: q
  do q = 1, 6
    a(q)%v = 0
    b(q - 1)%v = [1, 2, 3, 4] * 100 * q
  end do
  call p(a, b)
  do q = 1, 6
    print '(4f8.1)', a(q)%v
  end do
end program main
