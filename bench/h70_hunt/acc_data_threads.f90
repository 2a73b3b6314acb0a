! translate-test: translate=--directives=openacc cppflags=-fopenmp
! OpenACC data directives reached from several host threads (an OpenMP parallel do left as
! written, built with -fopenmp): each thread keeps its own column on the device.
module dwork
contains
  subroutine work(n, x, s, t)
    integer, intent(in) :: n, t
    real(8), intent(inout) :: x(n)
    real(8), intent(out) :: s
    integer :: i, k
    !$acc data copy(x)
    do k = 1, 3
      !$acc parallel loop
      do i = 1, n
        x(i) = x(i) + dble(t)
      end do
    end do
    !$acc update host(x)
    s = x(1) + x(n)
    !$acc parallel loop
    do i = 1, n
      x(i) = x(i) * 2.0d0
    end do
    !$acc end data
    !$acc enter data copyin(x)
    !$acc parallel loop present(x)
    do i = 1, n
      x(i) = x(i) + 1.0d0
    end do
    !$acc exit data copyout(x)
  end subroutine work
end module dwork

program acc_data_threads
  use dwork
  implicit none
  integer, parameter :: n = 4000, m = 64
  real(8) :: x(n, m), s(m)
  integer :: i, j
  do j = 1, m
    do i = 1, n
      x(i, j) = dble(i + j)
    end do
  end do
  !$omp parallel do
  do j = 1, m
    call work(n, x(:, j), s(j), j)
  end do
  print '(2ES24.16)', sum(x), sum(s)
end program acc_data_threads
