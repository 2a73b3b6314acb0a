module ops
  implicit none
contains
  subroutine scale(n, s, x)
    integer, intent(in) :: n
    real(8), intent(in) :: s
    real(8), intent(inout) :: x(n)
    integer :: i
    !$translate kernel scale_k
    do i = 1, n
       x(i) = s * x(i) + 1.0d0
    end do
    !$translate end kernel
  end subroutine scale
end module ops
