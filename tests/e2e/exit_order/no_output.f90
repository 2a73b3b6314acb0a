! The last device work is a region with no outputs: s is assigned and never read.  The
! translated program must exit cleanly and keep its buffered output (issue 20, item 10).
subroutine last_value(n)
  integer, intent(in) :: n
  integer :: i
  real(8) :: s
  !$translate kernel last_value_k
  do i = 1, n
     s = i * 2.0d0
  end do
  !$translate end kernel
end subroutine last_value

program main
  implicit none
  print *, 'start'
  call last_value(100000)
  print *, 'done'
end program main
