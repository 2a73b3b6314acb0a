! translate-test: rtol=1e-12 translate=--directives=openacc
! One routine per OpenACC directive family (translate --directives openacc), each checked
! against the original program (built without -fopenacc).
module families
  implicit none
contains
  subroutine constructs(n, a, b, c)
    integer, intent(in) :: n
    real(8), intent(inout) :: a(n), b(n), c(n)
    integer :: i
    ! a parallel construct with two loop directives: one region, two kernels
    !$acc parallel copyin(a) copy(b) vector_length(32)
    !$acc loop
    do i = 1, n
       b(i) = b(i) + a(i)
    end do
    !$acc loop gang vector
    do i = 1, n
       c(i) = b(i) * 2
    end do
    !$acc end parallel
    ! a bare loop inside kernels is automatic: this one is a recurrence, kept sequential
    !$acc kernels
    !$acc loop
    do i = 2, n
       c(i) = c(i - 1) * 0.5d0 + a(i)
    end do
    !$acc end kernels
    ! kernels around plain loops; if/async accepted, wait left as written
    !$acc kernels if(n > 10) async(1)
    do i = 1, n
       a(i) = a(i) + 1
    end do
    do i = 1, n
       b(i) = b(i) - a(i)
    end do
    !$acc end kernels
    !$acc wait(1)
  end subroutine constructs

  subroutine loops(m, u, v, s, p)
    integer, intent(in) :: m
    real(8), intent(inout) :: u(m, m), v(m, m), s
    integer, intent(inout) :: p
    integer :: i, j
    real(8) :: t, w
    t = s
    !$acc parallel loop collapse(2) firstprivate(t) private(w) present_or_copyin(u)
    do j = 1, m
       do i = 1, m
          w = u(i, j) * t
          v(i, j) = w - u(j, i)
       end do
    end do
    !$acc end parallel loop
    !$acc parallel loop independent
    do j = 1, m
       !$acc loop seq
       do i = 2, m
          u(i, j) = u(i - 1, j) + v(i, j)
       end do
    end do
    !$acc kernels loop auto
    do i = 2, m
       v(i, 1) = v(i - 1, 1) + 1
    end do
    !$acc serial loop reduction(+:s) reduction(max:p)
    do i = 1, m
       s = s + u(i, m)
       p = max(p, i * 3)
    end do
  end subroutine loops

  subroutine data_moves(n, a, b)
    integer, intent(in) :: n
    real(8), intent(inout) :: a(n), b(n)
    integer :: i, t
    !$acc enter data pcopyin(a) create(b)
    do t = 1, 3
       !$acc parallel loop default(present)
       do i = 1, n
          b(i) = a(i) * t
       end do
       !$acc parallel loop present(a, b)
       do i = 1, n
          a(i) = a(i) + b(i)
       end do
    end do
    !$acc update self(a)
    a(1) = -1
    !$acc update device(a(1:1))
    !$acc exit data copyout(a) delete(b) finalize
  end subroutine data_moves
end module families

program main
  use families
  implicit none
  integer, parameter :: n = 300, m = 20
  real(8) :: a(n), b(n), c(n), u(m, m), v(m, m), s
  integer :: i, j, p
  do i = 1, n
     a(i) = mod(7 * i, 13) * 0.125d0
     b(i) = mod(5 * i, 11) * 0.25d0
     c(i) = 0
  end do
  do j = 1, m
     do i = 1, m
        u(i, j) = mod(i + 3 * j, 7) * 0.5d0
     end do
  end do
  call constructs(n, a, b, c)
  print '(a, 3es24.16)', 'constructs', sum(a), sum(b), sum(c)
  s = 1.5d0
  p = 0
  call loops(m, u, v, s, p)
  print '(a, 3es24.16, i6)', 'loops', sum(u), sum(v), s, p
  call data_moves(n, a, b)
  print '(a, 2es24.16)', 'data', sum(a), a(1)
end program main
