program mv
  implicit none
  integer, parameter :: n = 300
  real(8) :: a(0:n-1, 0:n-1), x(0:n-1), y(0:n-1), t
  integer :: i, j
  do j = 0, n - 1
    x(j) = mod(j * 13, 23) / 23d0
    do i = 0, n - 1
      a(i, j) = mod(i * 11 + j, 29) / 29d0 - 0.5d0
    end do
  end do
  !$translate kernel gemv
  !$translate split_iname("i", 32, outer_tag="g.0", inner_tag="l.0")
  !$translate split_iname("j", 64)
  !$translate add_prefetch("a", ["i_inner", "j_inner"], dim_arg_names=["a_j_dim_0", "a_j_dim_1"], default_tag=None, temporary_address_space="local", within="iname:j_inner")
  !$translate tag_inames("a_j_dim_0:l.0, a_j_dim_1:unr")
  !$translate add_prefetch("x", ["j_inner"], default_tag="l.auto", within="iname:j_inner")
  do i = 0, n - 1
    t = 0d0
    do j = 0, n - 1
      t = t + a(i, j) * x(j)
    end do
    y(i) = t
  end do
  !$translate end kernel
  write (*, '(3z17)') sum(y), y(0), y(n - 1)
end program
