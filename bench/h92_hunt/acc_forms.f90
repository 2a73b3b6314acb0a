! translate-test: translate=--directives=openacc
! OpenACC forms real code uses: kernels around several loops (each its own kernel), parallel
! with loop gang / loop vector inside, async(n) and wait, loop seq, routine seq on a called
! function, and a data region around them.
module acc_forms_m
  implicit none
contains
  real(8) function weight(x)
    !$acc routine seq
    real(8), intent(in) :: x
    weight = 1.0d0 / (1.0d0 + x * x)
  end function weight
end module acc_forms_m

program acc_forms
  use acc_forms_m
  implicit none
  integer, parameter :: n = 200, m = 64
  real(8) :: a(n), b(n), c(m, n), rowsum(n), s
  integer :: i, j, k
  do i = 1, n
    a(i) = 0.01d0 * i
  end do
  !$acc data copyin(a) create(b) copyout(c, rowsum)
  !$acc kernels
  do i = 1, n
    b(i) = 2.0d0 * a(i) + 1.0d0
  end do
  do i = 1, n
    do j = 1, m
      c(j, i) = b(i) * j
    end do
  end do
  !$acc end kernels
  !$acc parallel vector_length(64) async(1)
  !$acc loop gang
  do i = 1, n
    s = 0.0d0
    !$acc loop vector reduction(+:s)
    do j = 1, m
      s = s + c(j, i) * weight(a(i))
    end do
    rowsum(i) = s
  end do
  !$acc end parallel
  !$acc wait(1)
  !$acc parallel loop gang async(2)
  do i = 1, n
    !$acc loop seq
    do k = 2, m
      c(k, i) = c(k, i) + 0.5d0 * c(k - 1, i)
    end do
  end do
  !$acc wait
  !$acc end data
  write (*, '(3es24.15)') rowsum(1), rowsum(n / 2), rowsum(n)
  write (*, '(3es24.15)') c(m, 1), c(m, n / 2), c(2, n)
end program acc_forms
