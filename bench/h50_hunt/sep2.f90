program sep2
  implicit none
  integer, parameter :: n = 400
  real(8) :: a(n + 1, 10), b(10 * n + 2)
  integer :: i
  call reset()
  !$translate kernel cols_ok
  do i = 1, n
    a(i, 1) = a(i, 1) + 1d0
    a(i, 2) = a(i, 2) * 2d0
    a(i, 3) = a(i, 3) + a(i, 2)
    a(i, 4) = a(i, 4) * 0.5d0
    a(i, 5) = a(i, 5) + 5d0
    a(i, 6) = a(i, 6) * 1.5d0
    a(i, 7) = a(i, 7) + 7d0
    a(i, 8) = a(i, 8) - a(i, 1)
  end do
  !$translate end kernel
  call dump('cols_ok')
  call reset()
  !$translate kernel cols_shift
  do i = 1, n
    a(i, 1) = a(i, 1) + 1d0
    a(i, 2) = a(i, 2) * 2d0
    a(i, 3) = a(i + 1, 3) + a(i, 2)
    a(i, 4) = a(i, 4) * 0.5d0
    a(i, 5) = a(i, 5) + 5d0
    a(i, 6) = a(i, 6) * 1.5d0
    a(i, 7) = a(i, 7) + 7d0
    a(i, 8) = a(i, 8) - a(i, 1)
  end do
  !$translate end kernel
  call dump('cols_shift')
  call reset()
  !$translate kernel cols_cross
  do i = 1, n
    a(i, 1) = a(i, 1) + 1d0
    a(i, 2) = a(i, 2) * 2d0
    a(i, 3) = a(i, 3) + a(i, 2)
    a(i, 4) = a(i, 4) * 0.5d0
    a(i, 5) = a(i, 5) + 5d0
    a(i, 6) = a(i, 6) * 1.5d0
    a(i, 7) = a(i, 7) + 7d0
    a(i, 8) = a(n + 1 - i, 7) - a(i, 1)
  end do
  !$translate end kernel
  call dump('cols_cross')
  call reset()
  !$translate kernel flat_rev
  do i = 1, n
    b(i) = b(i) + 1d0
    b(n + i) = b(n + i) * 2d0
    b(2 * n + i) = b(2 * n + i) + 2d0
    b(3 * n + i) = b(3 * n + i) * 3d0
    b(4 * n + i) = b(5 * n + 1 - i) + 4d0
    b(5 * n + i) = b(5 * n + i) * 5d0
    b(6 * n + i) = b(6 * n + i) + 6d0
    b(7 * n + i) = b(7 * n + i) * 7d0
  end do
  !$translate end kernel
  call dump('flat_rev')
  call reset()
  !$translate kernel flat_nb
  do i = 1, n
    b(i) = b(i) + 1d0
    b(n + i) = b(n + i) * 2d0
    b(2 * n + i) = b(2 * n + i) + 2d0
    b(3 * n + i) = b(3 * n + i) * 3d0
    b(4 * n + i) = b(4 * n + i) + 4d0
    b(5 * n + i) = b(5 * n + i) * 5d0
    b(6 * n + i) = b(6 * n + i) + 6d0
    b(7 * n + i) = b(7 * n + i) * 7d0
    b(8 * n + i + 1) = b(7 * n + i + 1) - 1d0
  end do
  !$translate end kernel
  call dump('flat_nb')
contains
  subroutine reset()
    integer :: k
    do k = 1, 10 * n + 2
      b(k) = mod(k, 37) * 0.25d0 - 3d0
    end do
    do k = 1, 10
      a(:, k) = b((k - 1) * n + 1:k * n + 1)
    end do
  end subroutine
  subroutine dump(w)
    character(*) :: w
    integer :: k
    real(8) :: s
    s = 0
    do k = 1, 10 * n + 2
      s = s + b(k) * mod(k, 11)
    end do
    write (*, '(a, 2z17)') w, s, sum(a * 1.5d0)
  end subroutine
end program
