subroutine f(n, t, a, b)
  integer, intent(in) :: n
  real(8), intent(in) :: t, a(n)
  real(8), intent(out) :: b(n)
  integer :: i
  !$translate kernel guarded
  do i = 1, n
     b(i) = 0.0d0
     if (i > 1) then
        if (a(i - 1) > t) b(i) = a(i - 1)
     end if
  end do
  !$translate end kernel
end subroutine

program main
  integer, parameter :: n = 1000
  real(8) :: a(n), b(n), s
  integer :: i
  do i = 1, n
     a(i) = mod(i * 37, 101) / 100.0d0
  end do
  call f(n, 0.5d0, a, b)
  s = 0
  do i = 1, n
     s = s + b(i) * i
  end do
  print '(es25.17)', s
end program
