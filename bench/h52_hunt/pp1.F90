#define SCALE 3
program main
  implicit none
  integer, parameter :: n = 64
  real(8) :: a(n), b(n)
  logical :: m(n)
  integer :: i, k(n)
  do i = 1, n
     a(i) = i - 30.5d0; m(i) = mod(i, 3) == 0
  end do
  !$translate kernel pp_k
  do i = 1, n
     b(i) = a(i) * SCALE
     if (m(i)) b(i) = -b(i)
     k(i) = (i - 33) / 4 + mod(i - 33, 5) + nint(a(i) / 2) + int(a(i) / 3) + (-i) ** 3 / 7
     m(i) = m(i) .neqv. (b(i) > 0)
  end do
  !$translate end kernel
  print '(es24.16, i8, i4)', sum(b), sum(k), count(m)
end program
