subroutine s(n, a, b)
  integer :: n, i
  real(8) :: a(n), b(n), t
  !$omp parallel do
  do i = 1, n
     t = a(i)
     b(i) = 2*t
  end do
end subroutine
