module m
  implicit none
contains
  subroutine syrk_low(n, k, a, c)
    integer, intent(in) :: n, k
    real(8), intent(in) :: a(n, k)
    real(8), intent(inout) :: c(n, n)
    integer :: i, j, l
    real(8) :: t
    !$translate kernel syrk_low
    do j = 1, n
       do i = j + 2, n
          t = 0d0
          do l = 1, k
             t = t + a(i, l) * a(j, l)
          end do
          c(i, j) = 0.5d0 * c(i, j) + 2d0 * t
       end do
    end do
    !$translate end kernel
  end subroutine
  subroutine syr2k_up(n, k, a, b, c)
    integer, intent(in) :: n, k
    real(4), intent(in) :: a(n, k), b(n, k)
    real(4), intent(inout) :: c(n, n)
    integer :: i, j, l
    !$translate kernel syr2k_up
    do j = 1, n
       do i = 1, min(j + 3, n)
          do l = 1, k
             c(i, j) = c(i, j) + a(i, l) * b(j, l) + b(i, l) * a(j, l)
          end do
       end do
    end do
    !$translate end kernel
  end subroutine
  subroutine gemm_off(n, m, k, a, b, c)
    integer, intent(in) :: n, m, k
    real(8), intent(in) :: a(0:n, k), b(k, 2:m+1)
    real(8), intent(inout) :: c(0:n, 2:m+1)
    integer :: i, j, l
    real(8) :: t
    !$translate kernel gemm_off
    do j = 2, m + 1
       do i = 0, n
          t = c(i, j) * 0.25d0
          do l = 1, k
             t = t + a(i, l) * b(l, j)
          end do
          c(i, j) = t - 1d0
       end do
    end do
    !$translate end kernel
  end subroutine
end module
program p
  use m
  implicit none
  integer, parameter :: n = 157, k = 45
  real(8) :: a(n, k), c(n, n), ga(0:n, k), gb(k, 2:n+1), gc(0:n, 2:n+1)
  real(4) :: sa(n, k), sb(n, k), sc(n, n)
  integer :: i, j, s, nn
  do s = 1, 2
    nn = n - (s - 1) * 30
    do j = 1, k
      do i = 1, n
        a(i, j) = mod(i * 7 + j * 3, 101) / 101d0 - 0.3d0
        sa(i, j) = real(mod(i * 5 + j, 17)) / 17.0
        sb(i, j) = real(mod(i + j * 3, 19)) / 19.0 - 0.5
      end do
      do i = 0, n
        ga(i, j) = mod(i * 3 + j, 23) / 23d0
      end do
      do i = 2, n + 1
        gb(j, i) = mod(i * 2 + j * 5, 29) / 29d0
      end do
    end do
    do j = 1, n
      do i = 1, n
        c(i, j) = mod(i + j, 13) / 7d0
        sc(i, j) = real(mod(i * j, 11)) / 11.0
      end do
    end do
    gc = 1d0
    call syrk_low(nn, k, a(1:nn, :), c(1:nn, 1:nn))
    call syr2k_up(nn, k - 3, sa(1:nn, 1:k-3), sb(1:nn, 1:k-3), sc(1:nn, 1:nn))
    call gemm_off(nn, nn - 5, k, ga(0:nn, :), gb(:, 2:nn-4), gc(0:nn, 2:nn-4))
    write (*, '(3z17)') sum(c), c(nn, 1), c(3, 1)
    write (*, '(3z10)') sum(sc), sc(1, nn), sc(nn, nn - 3)
    write (*, '(3z17)') sum(gc), gc(0, 2), gc(nn, nn - 4)
  end do
end program
