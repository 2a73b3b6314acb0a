module fields
  implicit none
  type :: state_t
    real(8), allocatable :: rho(:), mom(:)
    real(8) :: gamma
  end type
contains
  ! column norms and a smoothing of the interior, through ASSOCIATE names of sections
  subroutine columns(n, m, a, b, s)
    integer, intent(in) :: n, m
    real(8), intent(in) :: a(n, m)
    real(8), intent(inout) :: b(0:n + 1, m)
    real(8), intent(out) :: s(m)
    integer :: i, j
    !$translate kernel cols
    do j = 1, m
      associate (col => a(:, j), inner => b(1:n, j), edge => b(:, j), total => s(j))
        total = 0.0d0
        b(0, j) = b(0, j) + 1.0d0   ! the array itself, seen through edge(1)
        do i = 1, n
          total = total + col(i) * col(i)
        end do
        do i = 2, n - 1
          inner(i) = 0.25d0 * (col(i - 1) + 2.0d0 * col(i) + col(i + 1)) + edge(1)
        end do
        edge(n + 2) = total
      end associate
    end do
    !$translate end kernel
  end subroutine
  ! components and a whole array with its own lower bound
  subroutine update(st, w, dt)
    type(state_t), intent(inout) :: st
    real(8), intent(inout) :: w(-2:)
    real(8), intent(in) :: dt
    integer :: i
    !$translate kernel upd
    associate (r => st%rho, u => st%mom, g => st%gamma, ww => w, odd => w(-1:7:2))
      do i = 1, size(r)
        u(i) = u(i) - dt * g * (r(i) - ww(i - 3))
      end do
      do i = 1, size(odd)
        odd(i) = odd(i) * 0.5d0
      end do
    end associate
    !$translate end kernel
  end subroutine
end module fields
program assoc78
  use fields
  implicit none
  integer, parameter :: n = 9, m = 5
  real(8) :: a(n, m), b(0:n + 1, m), s(m), w(12)
  type(state_t) :: st
  integer :: i, j
  do j = 1, m
    do i = 1, n
      a(i, j) = dble(mod(i * 7 + j * 3, 11)) - 4.5d0
    end do
    do i = 0, n + 1
      b(i, j) = dble(i - j) * 0.125d0
    end do
  end do
  call columns(n, m, a, b, s)
  write(*, '(4ES24.16)') s
  write(*, '(4ES24.16)') b
  allocate(st%rho(12), st%mom(12))
  do i = 1, 12
    st%rho(i) = 1.0d0 + dble(i) * 0.1d0
    st%mom(i) = dble(mod(i, 5)) - 2.0d0
    w(i) = dble(i) * 0.3d0
  end do
  st%gamma = 1.4d0
  call update(st, w, 0.01d0)
  write(*, '(4ES24.16)') st%mom, w
end program assoc78
