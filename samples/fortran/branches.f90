! Branches inside a parallel loop: block IF / ELSE IF / ELSE, a logical IF, intrinsics.
!
! Each branch becomes a condition (predicate) on the statements inside it; ELSE branches
! carry the negation of the conditions before them.  The work item for i evaluates only the
! statements whose conditions hold.

subroutine classify(n, x, lo, hi, y, kind_of)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), lo, hi
  real(8), intent(out) :: y(n)
  integer, intent(out) :: kind_of(n)
  integer :: i

  !$translate kernel classify
  !$translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
  do i = 1, n
     if (x(i) < lo) then
        y(i) = lo - sqrt(abs(x(i) - lo))
        kind_of(i) = -1
     else if (x(i) > hi) then
        y(i) = hi + log(1.0d0 + (x(i) - hi))
        kind_of(i) = 1
     else
        y(i) = max(lo, min(hi, x(i) * x(i)))
        kind_of(i) = 0
     end if
     if (mod(i, 10) == 0) y(i) = -y(i)
     if (kind_of(i) == 0 .and. abs(y(i)) > 0.5d0) kind_of(i) = 2
  end do
  !$translate end kernel
end subroutine classify

program main
  implicit none
  integer, parameter :: n = 1000
  real(8) :: x(n), y(n)
  integer :: kind_of(n), i

  do i = 1, n
     x(i) = 3.0d0 * sin(0.37d0 * i)
  end do

  call classify(n, x, -1.0d0, 1.5d0, y, kind_of)

  print '(a, 1x, es23.15e3)', 'checksum = ', sum(y)
  print '(a, 4i8)', 'counts (-1, 0, 1, 2) = ', count(kind_of == -1), count(kind_of == 0), &
       count(kind_of == 1), count(kind_of == 2)
  print '(a, 3(1x, es23.15e3))', 'y(1), y(n/2), y(n) = ', y(1), y(n/2), y(n)
end program main
