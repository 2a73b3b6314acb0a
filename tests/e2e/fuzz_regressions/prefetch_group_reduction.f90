! e2e fuzzer (h76) c:4029 in Fortran, in a module (the lead, session 13): a max reduction over a
! loop split onto g.0/l.0, read inside the region (sp = s0), beside a prefetch of b0 read only
! outside the j loop.  The C program printed other values when its prefetch fill was launched
! after its reader; this neighbour matched before that fix too.
module fields
  implicit none
  integer, parameter :: nb = 12
contains
  subroutine p9(n, b0, a1, sp)
    integer, intent(in) :: n
    real, intent(in) :: b0(nb, nb, nb)
    double precision, intent(inout) :: a1(24, 24)
    real, intent(out) :: sp
    integer :: i, j
    real :: s0
    s0 = -1000.0
    !$translate kernel p9_r0
    !$translate split_iname("j", 5, outer_tag="g.0", inner_tag="l.0")
    !$translate add_prefetch("b0", ["j_inner"], fetch_bounding_box=True)
    do i = 1, n - 1
      do j = 3, 7
        a1(i + 6, j + 2) = j
        s0 = max(s0, real(i))
      end do
      a1(i + 2, 5 - i) = a1(i + 2, 5 - i) + dble(b0(i + 3, i, i + 5)) + i
    end do
    sp = s0
    !$translate end kernel
  end subroutine p9
end module fields
program main
  use fields
  implicit none
  real :: b0(nb, nb, nb), sv
  double precision :: a1(24, 24)
  integer :: q
  do q = 0, nb**3 - 1
    b0(mod(q, nb) + 1, mod(q / nb, nb) + 1, q / nb**2 + 1) = (mod(q*7 + 3, 17) - 8) / 4.0
  end do
  a1 = 0
  call p9(5, b0, a1, sv)
  print '(ES24.16)', sv
  print '(4ES24.16)', a1
end program main
