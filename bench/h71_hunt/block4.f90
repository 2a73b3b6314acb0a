! translate-test: translate=--directives=openmp,translate
program block4
  implicit none
  integer, parameter :: n = 24
  real(8) :: a(n), b(n), c(n, n), t
  integer :: i, j, k
  t = -7.0d0
  do i = 1, n
    a(i) = dble(mod(i * 5, 7)) - 2.5d0
  end do
  !$translate kernel bk
  do i = 1, n
    block
      real(8) :: t, q
      integer :: k
      integer, parameter :: m = 3
      t = a(i) * a(i)
      k = mod(i, m) + 1
      if (t > 2.0d0) then
        q = t - 1.0d0
      else
        q = t + a(k)
      end if
      b(i) = q / (t + 2.0d0) + dble(k)
    end block
  end do
  !$translate end kernel
  !$omp parallel do private(j)
  do i = 1, n
    do j = 1, n
      block
        real(8) :: s
        s = a(i) - a(j)
        c(i, j) = s * s + t
      end block
    end do
  end do
  write(*, '(4ES24.16)') b, t
  write(*, '(4ES24.16)') c(:, 3), c(5, :)
end program block4
