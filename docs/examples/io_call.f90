subroutine report(x)
  real, intent(in) :: x
  print *, x
end subroutine report

subroutine show(n, a)
  integer, intent(in) :: n
  real, intent(in) :: a(n)
  integer :: i
  !$translate kernel show_k
  do i = 1, n
     call report(a(i))
  end do
  !$translate end kernel
end subroutine show
