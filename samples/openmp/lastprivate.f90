! translate-test: translate=--directives=openmp
!
! lastprivate: each iteration has its own copy of t (and k), and after the loop they hold the
! values the sequentially last iteration gave them, as in OpenMP.  The loops run in parallel;
! the work item that runs the last iteration (i = 1 + 3*((n-1)/3); in the collapsed nest, its
! last point (j, i) = (m, m - 1)) stores its copies.  Bit-identical to the original.

subroutine last_value(n, a, b, c, t, k)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n), b(n)
  real(8), intent(out) :: c(n), t
  integer, intent(out) :: k
  integer :: i, j
  t = -1
  k = -1
  !$omp parallel do lastprivate(t, k)
  do i = 1, n, 3
     t = a(i) + 1
     do j = 1, 3
        t = t + b(i) * j
     end do
     k = i
     c(i) = t * b(i)
  end do
  !$omp end parallel do
end subroutine

subroutine last_of_block(m, u, v, s, jl)
  implicit none
  integer, intent(in) :: m
  real(8), intent(in) :: u(m, m)
  real(8), intent(out) :: v(m, m), s
  integer, intent(out) :: jl
  integer :: i, j
  s = 0
  jl = 0
  !$omp parallel do collapse(2) lastprivate(s, jl)
  do j = 2, m
     do i = 1, m - 1
        s = u(i, j) * 2 + i
        jl = 1000 * j + i
        v(i, j) = s - u(i, j)
     end do
  end do
end subroutine

program main
  implicit none
  integer, parameter :: n = 1000, m = 45
  real(8) :: a(n), b(n), c(n), t, u(m, m), v(m, m), s
  integer :: i, j, k, jl
  do i = 1, n
     a(i) = sin(0.01d0 * i)
     b(i) = cos(0.03d0 * i)
  end do
  do j = 1, m
     do i = 1, m
        u(i, j) = 1.0d0 / (i + 2 * j)
     end do
  end do
  c = 0
  v = 0
  call last_value(n, a, b, c, t, k)
  call last_of_block(m, u, v, s, jl)
  print '(ES25.17, I8)', t, k
  print '(ES25.17, I8)', s, jl
  print '(2ES25.17)', sum(c), sum(v)
end program
