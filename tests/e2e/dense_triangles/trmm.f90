! Fortran twins of trmm.c: the summed loop's range depends on the row or on the column.
module tri
  implicit none
contains
  subroutine lower_times(n, m, a, b, d)
    integer, intent(in) :: n, m
    real(8), intent(in) :: a(n, n), b(n, m)
    real(8), intent(out) :: d(n, m)
    real(8) :: acc
    integer :: i, j, k
    !$translate kernel lower_times
    do j = 1, m
       do i = 1, n
          acc = 0d0
          do k = 1, i
             acc = acc + a(i, k) * b(k, j)
          end do
          d(i, j) = acc
       end do
    end do
    !$translate end kernel
  end subroutine lower_times

  subroutine times_upper(n, m, b, u, d)
    integer, intent(in) :: n, m
    real(8), intent(in) :: b(n, m), u(m, m)
    real(8), intent(inout) :: d(n, m)
    integer :: i, j, k
    !$translate kernel times_upper
    do j = 1, m
       do i = 1, n
          do k = j, m
             d(i, j) = d(i, j) + b(i, k) * u(k, j)
          end do
       end do
    end do
    !$translate end kernel
  end subroutine times_upper
end module tri

program main
  use tri
  implicit none
  integer, parameter :: n = 203, m = 77
  real(8) :: a(n, n), b(n, m), u(m, m), d(n, m)
  integer :: i, j
  do j = 1, n
     do i = 1, n
        a(i, j) = mod(i * 11 + j, 29) / 29d0 - 0.5d0
     end do
  end do
  do j = 1, m
     do i = 1, n
        b(i, j) = mod(i * 5 + j * 11, 97) / 97d0
     end do
     do i = 1, m
        u(i, j) = mod(i * 3 + j * 7, 31) / 31d0
     end do
  end do
  call lower_times(n, m, a, b, d)
  write (*, '(3z17)') d(1, 1), d(n, m), d(100, 50)
  write (*, '(es26.17)') sum(d)
  call times_upper(n, m, b, u, d)
  write (*, '(3z17)') d(1, 1), d(n, m), d(100, 50)
  write (*, '(es26.17)') sum(d)
end program main
