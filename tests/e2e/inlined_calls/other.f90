subroutine scale_add(n, alpha, x, y, total)
  implicit none
  integer, intent(in) :: n
  double precision, intent(in) :: alpha, x(*)
  double precision, intent(inout) :: y(*)
  double precision, intent(out) :: total
  integer :: k
  total = 0
  do k = 1, n
    y(k) = y(k) + alpha * x(k)
    call accumulate(total, y(k))
  end do
end subroutine scale_add

subroutine accumulate(s, v)
  implicit none
  double precision, intent(inout) :: s
  double precision, intent(in) :: v
  s = s + v
end subroutine accumulate
