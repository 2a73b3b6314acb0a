! translate-test: translate=--directives=openacc rtol=1e-13
! OpenACC shapes: num_gangs/vector_length, loop independent/auto/tile, atomic update,
! declare, if clauses, async/wait, kernels with collapse.
module accd
  implicit none
  integer, parameter :: n = 64, m = 48
  real(8) :: glob(n)
  !$acc declare create(glob)
end module accd

program acc_clauses
  use accd
  implicit none
  real(8) :: a(n, m), b(n, m), c(n), s, h(8)
  integer :: i, j, k, cnt
  logical :: big
  do j = 1, m
    do i = 1, n
      a(i, j) = dble(mod(i * 7 + j * 3, 13)) - 6.0d0
    end do
  end do
  big = .true.
  !$acc parallel num_gangs(16) vector_length(64) if(big)
  !$acc loop gang vector collapse(2)
  do j = 1, m
    do i = 1, n
      b(i, j) = a(i, j) * 2.0d0
    end do
  end do
  !$acc end parallel
  !$acc parallel loop independent tile(8, 8) async(1)
  do j = 1, m
    do i = 1, n
      b(i, j) = b(i, j) + a(i, j)
    end do
  end do
  !$acc wait(1)
  !$acc kernels loop auto
  do i = 2, n
    c(i) = b(i, 1) + b(i - 1, 1)
  end do
  c(1) = 0
  cnt = 0
  !$acc parallel loop reduction(+:cnt)
  do i = 1, n
    if (c(i) > 0.0d0) cnt = cnt + 1
  end do
  s = 0
  !$acc parallel loop
  do i = 1, n
    !$acc atomic update
    s = s + c(i)
  end do
  h = 0
  !$acc parallel loop private(k)
  do i = 1, n
    k = mod(i, 8) + 1
    !$acc atomic update
    h(k) = h(k) + 1.0d0
  end do
  !$acc parallel loop present(glob) copyin(c)
  do i = 1, n
    glob(i) = c(i) * 0.5d0
  end do
  !$acc update self(glob)
  print '(2I6)', cnt, int(sum(h))
  print '(4ES24.16)', sum(b), sum(c), s, sum(glob)
end program acc_clauses
