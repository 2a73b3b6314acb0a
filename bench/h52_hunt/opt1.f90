module mo
  implicit none
contains
  subroutine sc(n, a, f)
    integer, intent(in) :: n
    real(8), intent(inout) :: a(:)
    real(8), intent(in), optional :: f
    real(8) :: g
    integer :: i
    g = 2
    if (present(f)) g = f
    !$translate kernel sc_k
    do i = 1, n
       a(i) = a(i) * g
    end do
    !$translate end kernel
  end subroutine
  subroutine sh(a, b)
    real(8), intent(inout) :: a(0:, 5:)
    real(8), intent(in) :: b(:, :)
    integer :: i, j
    !$translate kernel sh_k
    do j = 5, ubound(a, 2)
       do i = 0, ubound(a, 1)
          a(i, j) = a(i, j) + b(i + 1, j - 4) * (i - j)
       end do
    end do
    !$translate end kernel
  end subroutine
end module
program main
  use mo
  implicit none
  real(8) :: a(50), m(7, 9), b(7, 9)
  character(len=8) :: name
  integer :: i, j
  name = 'xyz'
  a = [(i * 0.5d0, i = 1, 50)]
  call sc(50, a)
  call sc(50, a, 0.25d0)
  do j = 1, 9
     do i = 1, 7
        m(i, j) = i + 10 * j; b(i, j) = i * j
     end do
  end do
  call sh(m, b)
  call sh(m(2:6, 3:8), b)
  print '(a, 2es24.16)', trim(name), sum(a), sum(m * m)
end program
