! Async queues in Fortran: queue 1 runs slow_f then plus_one_f in order; mix_f, without async,
! reads what they wrote; the host reads an async region's copies after wait(1).
program order_f
  implicit none
  integer, parameter :: n = 4096, work = 300
  real(8) :: x(n), y(n), a(n)
  real(8) :: v
  integer :: i, k, t
  do i = 1, n
     x(i) = 0.25d0*i
     y(i) = 0d0
     a(i) = 0.5d0*mod(i, 13)
  end do
  !$translate data copy(x, y)
  do t = 1, 3
     !$translate kernel slow_f async(1)
     do i = 1, n
        v = x(i)
        do k = 1, work
           v = 0.5d0*v + 0.25d0*x(i)
        end do
        x(i) = v
     end do
     !$translate end kernel
     !$translate kernel plus_one_f async(1)
     do i = 1, n
        x(i) = x(i) + 1d0
     end do
     !$translate end kernel
     !$translate kernel mix_f
     do i = 1, n
        y(i) = 3d0*x(i) + y(i)
     end do
     !$translate end kernel
  end do
  !$translate end data
  !$translate kernel square_f async
  do i = 1, n
     a(i) = a(i)*a(i) + 1d0
  end do
  !$translate end kernel
  !$translate wait
  v = 0d0
  do i = 1, n
     v = v + x(i)*mod(i, 11)
  end do
  write(*, '(3es25.16)') v, sum(y), sum(a)
end program order_f
