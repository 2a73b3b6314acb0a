! translate-test: translate=--directives=openacc rtol=1e-13
! OpenACC: loop gang inside parallel / kernels constructs; scalars of the gang loop are the
! gang's (firstprivate), and a gang runs its iterations one after another.
program acc_rows_construct
  implicit none
  integer, parameter :: n = 37, m = 29
  real(8) :: a(m, n), b(n), c(n), d(n), e(n), s, t, u
  integer :: i, j
  do j = 1, n
    do i = 1, m
      a(i, j) = dble(mod(i * j, 11)) * 0.25d0 - 1.0d0
    end do
  end do
  !$acc parallel
  !$acc loop gang
  do j = 1, n
    s = 0.0d0
    !$acc loop vector reduction(+:s)
    do i = 1, m
      s = s + a(i, j)
    end do
    b(j) = s
  end do
  !$acc end parallel
  !$acc parallel vector_length(32) copyin(a) copyout(c)
  !$acc loop gang
  do j = 1, n
    t = -1.0d30
    !$acc loop vector reduction(max:t)
    do i = 1, m
      t = max(t, a(i, j) * dble(j))
    end do
    c(j) = t
  end do
  !$acc end parallel
  !$acc kernels
  !$acc loop gang
  do j = 1, n
    u = 0.0d0
    !$acc loop vector reduction(+:u)
    do i = 1, m
      u = u + a(i, j) * a(i, j)
    end do
    d(j) = u
  end do
  !$acc end kernels
  !$acc parallel
  !$acc loop gang
  do j = 1, n
    t = dble(j) * 0.5d0
    e(j) = t * t
  end do
  !$acc end parallel
  write(*, '(4ES24.16)') b(1), b(n), sum(b), sum(c)
  write(*, '(3ES24.16)') sum(d), e(3), sum(e)
end program acc_rows_construct
