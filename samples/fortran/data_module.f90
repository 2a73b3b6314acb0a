! Module data with enter/exit data: the field lives in a module, is allocated and sent to the
! device by an init routine (`enter data`), stays there while the time loop calls `advance`,
! and comes back in a finish routine (`exit data copyout`).

module field
  implicit none
  integer :: n
  real(8), allocatable :: f(:), g(:)
contains
  subroutine init(npoints)
    integer, intent(in) :: npoints
    integer :: i
    n = npoints
    allocate(f(n), g(n))
    do i = 1, n
      f(i) = sin(0.01d0 * i)
    end do
    g = 0.0d0
    !$translate enter data copyin(f) create(g)
  end subroutine init

  subroutine advance(m, a, b)
    integer, intent(in) :: m
    real(8), intent(inout) :: a(m), b(m)
    integer :: i
    !$translate kernel decay
    do i = 1, m
      b(i) = 0.9d0 * a(i) + 0.05d0
    end do
    !$translate end kernel
    !$translate kernel swap
    do i = 1, m
      a(i) = b(i)
    end do
    !$translate end kernel
  end subroutine advance

  subroutine finish()
    !$translate exit data copyout(f) delete(g)
  end subroutine finish
end module field

program data_module
  use field
  implicit none
  integer :: t
  call init(3000)
  do t = 1, 25
    call advance(n, f, g)
  end do
  call finish()
  print '(3es24.16)', f(1), f(n / 2), f(n)
  print '(a, es24.16)', 'sum ', sum(f)
  deallocate(f, g)
end program data_module
