! translate-test: translate=--directives=openacc rtol=1e-13
program acc_rows
  implicit none
  integer, parameter :: n = 37, m = 29
  real(8) :: a(m, n), b(n), c(n), s, t, tot
  integer :: i, j
  do j = 1, n
    do i = 1, m
      a(i, j) = dble(mod(i * j, 11)) * 0.25d0 - 1.0d0
    end do
  end do
  !$acc parallel loop gang
  do j = 1, n
    s = 0.0d0
    !$acc loop vector reduction(+:s)
    do i = 1, m
      s = s + a(i, j)
    end do
    b(j) = s
  end do
  !$acc parallel loop gang private(t)
  do j = 1, n
    t = -1.0d30
    !$acc loop vector reduction(max:t)
    do i = 1, m
      t = max(t, a(i, j) * dble(j))
    end do
    c(j) = t
  end do
  tot = 0.0d0
  !$acc parallel
  !$acc loop gang reduction(+:tot)
  do j = 1, n
    tot = tot + b(j) * c(j)
  end do
  !$acc end parallel
  write(*, '(4ES24.16)') b(1), b(n), c(3), tot
end program acc_rows
