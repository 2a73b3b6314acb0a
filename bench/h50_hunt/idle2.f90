program idle2
  implicit none
  integer, parameter :: n = 1000
  real(8) :: a(n), b(n), y(n), z
  integer :: i, s
  integer, parameter :: nn(4) = (/ 1000, 1000, 300, 777 /), mm(4) = (/ 500, 1000, 999, 65 /)
  do i = 1, n
    a(i) = mod(i, 17) * 0.125d0
    b(i) = 1d0 / (1 + mod(i, 9))
    y(i) = -1d0
  end do
  do s = 1, 4
    call tail_dot(nn(s), mm(s), a, b, y)
    z = 0
    do i = 1, n
      z = z + y(i) * (mod(i, 5) + 1)
    end do
    write (*, '(i2, z17)') s, z
  end do
contains
  subroutine tail_dot(n, m, a, b, y)
    integer, intent(in) :: n, m
    real(8), intent(in) :: a(:), b(:)
    real(8), intent(inout) :: y(:)
    real(8) :: t
    integer :: i, k
    !$translate kernel tail_dot
    !$translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
    !$translate split_iname("k", 64)
    !$translate add_prefetch("a", ["k_inner"], default_tag="l.auto", within="iname:k_inner")
    do i = 1, n
      t = 0d0
      do k = i, m
        t = t + a(k) * b(k)
      end do
      y(i) = t
    end do
    !$translate end kernel
  end subroutine
end program
