! e2e fuzzer (h73), seed c:9 in Fortran: a prefetch (barriers) inside a loop whose bounds
! name the split loop; the work items of a group ran it different numbers of times.
subroutine triangle(n, b, a, c)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: b(12, 12, 12)
  real(8), intent(inout) :: a(24, 24), c(24)
  integer :: i, j, k
  !$translate kernel down_to_one
  !$translate split_iname("i", 16, outer_tag="g.0", inner_tag="l.0")
  !$translate add_prefetch("b", ["i_inner"], fetch_bounding_box=True)
  do i = 1, n
     do j = 1, 5
        do k = i + 1, 2, -1
           a(j + 2, i + 2) = a(j + 2, i + 2) + b(k - 1, j + 2, i + 1)
        end do
     end do
  end do
  !$translate end kernel
  !$translate kernel up_to_i
  !$translate split_iname("i", 4, outer_tag="g.0", inner_tag="l.0")
  !$translate add_prefetch("b", ["i_inner"], fetch_bounding_box=True)
  do i = 1, n
     do k = 1, i
        c(i) = c(i) * 0.5d0 + b(i, 3, k)
     end do
  end do
  !$translate end kernel
end subroutine triangle

program main
  implicit none
  real(8) :: b(12, 12, 12), a(24, 24), c(24)
  integer :: q, i
  b = reshape([(0.25d0 * (mod(q * 7 + 3, 17) - 8), q = 0, 12 * 12 * 12 - 1)], shape(b))
  a = reshape([(0.5d0 * (mod(q * 3 + 1, 13) - 6), q = 0, 24 * 24 - 1)], shape(a))
  c = [(real(q, 8), q = 1, 24)]
  call triangle(6, b, a, c)
  call triangle(10, b, a, c)
  do i = 1, 24
     write(*, '(I3, ES25.16E3)') i, c(i)
     write(*, '(4ES25.16E3)') a(:, i)
  end do
end program main
