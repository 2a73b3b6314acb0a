! Tuning (tests/e2e/test_tuning.py): a dense product and an axpy, each called 30 times.
module ops
  implicit none
contains
  subroutine gemm(n, a, b, c)
    integer, intent(in) :: n
    real(8), intent(in) :: a(n, n), b(n, n)
    real(8), intent(inout) :: c(n, n)
    real(8) :: acc
    integer :: i, j, k
    !$translate kernel gemm_k
    do j = 1, n
       do i = 1, n
          acc = 0.5d0 * c(i, j)
          do k = 1, n
             acc = acc + a(i, k) * b(k, j)
          end do
          c(i, j) = acc
       end do
    end do
    !$translate end kernel
  end subroutine gemm

  subroutine axpy(n, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(inout) :: y(n)
    integer :: i
    !$translate kernel axpy_k
    do i = 1, n
       y(i) = y(i) + 3.0d0 * x(i)
    end do
    !$translate end kernel
  end subroutine axpy
end module ops

program main
  use ops
  implicit none
  integer, parameter :: n = 40
  real(8) :: a(n, n), b(n, n), c(n, n), x(n), y(n)
  integer :: i, j, r
  do j = 1, n
     x(j) = mod(j, 7)
     y(j) = 0
     do i = 1, n
        a(i, j) = mod(i + j, 5)
        b(i, j) = mod(i * j, 3)
        c(i, j) = mod(i - j, 4)
     end do
  end do
  do r = 1, 30
     call gemm(n, a, b, c)
     c = c / 64.0d0
     call axpy(n, x, y)
  end do
  print '(3es24.16)', sum(c), c(n, n), sum(y)
end program main
