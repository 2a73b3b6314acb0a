! translate-test: translate=--directives=openmp,openacc,translate
! BLOCK constructs as modern codes write them: a region whose body is a BLOCK with its own
! scratch scalars and a small table, and a region inside a BLOCK that uses the BLOCK's
! variables (a work array and a scalar declared there).
module smooth_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  subroutine weights(n, x, y)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(n)
    real(dp), intent(out) :: y(n)
    integer :: i
    !$translate kernel wk
    block
      real(dp) :: t, s
      real(dp) :: c(3)
      c = [0.25_dp, 0.5_dp, 0.25_dp]
      do i = 2, n - 1
        t = c(1) * x(i - 1) + c(2) * x(i) + c(3) * x(i + 1)
        s = t * t
        y(i) = s + t
      end do
    end block
    !$translate end kernel
    y(1) = x(1)
    y(n) = x(n)
  end subroutine weights

  subroutine scaled(n, x, y)
    integer, intent(in) :: n
    real(dp), intent(inout) :: x(n)
    real(dp), intent(out) :: y(n)
    integer :: i
    block
      real(dp), allocatable :: work(:)
      real(dp) :: scale
      allocate(work(n))
      scale = 1.0_dp / n
      work = x
      !$omp target teams distribute parallel do
      do i = 1, n
        y(i) = scale * work(i) + work(n + 1 - i)
      end do
      x = work * 2
    end block
  end subroutine scaled
end module smooth_mod

program block1
  use smooth_mod
  implicit none
  integer, parameter :: n = 40
  real(dp) :: x(n), y(n), z(n)
  integer :: i
  do i = 1, n
    x(i) = sin(0.25_dp * i)
  end do
  call weights(n, x, y)
  call scaled(n, x, z)
  write(*, '(4ES24.16)') y, z, x
end program block1
