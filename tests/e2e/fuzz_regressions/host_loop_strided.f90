! e2e fuzzer, third round (h84), fortran:6069 as generated (--features all): region p9_r1 is
! cut into launches around host loop i (do i = 1, n + 1, 3), whose trip count holds a floor
! division.  With the floor-division fix of host_loop_floor_extent.f90 printed without
! parentheses, the loop condition read `i <= n >= 0 ? n / 3 : ...` and the program crashed
! (SIGSEGV in the kernel); it must print what the original prints.
subroutine p9(n, m, b0, b1, b2, a0, a1, ix, uf, ui, ires, fres)
  implicit none
  integer, intent(in) :: n, m
  integer, intent(in) :: b0(1:12, 1:12, 1:12)
  real(8), intent(in) :: b1(-2:37)
  integer, intent(in) :: b2(-2:37)
  integer(8), intent(inout) :: a0(-2:9, -2:9, -2:9)
  integer, intent(inout) :: a1(0:11, 0:11, 0:11)
  integer, intent(in) :: ix(1:16)
  real(8), intent(in) :: uf(0:39)
  integer, intent(in) :: ui(1:40)
  integer(8), intent(inout) :: ires(0:7)
  real(8), intent(inout) :: fres(0:7)
  integer :: i, j, k
  integer :: t0
  real(4) :: t1
  real(4) :: s2
  integer(8) :: t3
  real(4) :: s4
  integer :: t5
!$translate kernel p9_r0
  do i = (-2), (-1)
    t0 = modulo((i ** 0), 5)
    do j = (-1), 1
      do k = (i + 1), 6
        t1 = (abs(real(b1((modulo((j - 4), 4) + 19)), 4)) * real(b0((((-1) * j) + 6), (j + 11), (k &
      & + 2)), 4))
        a0(i, (j + 1), k) = ((1_8 ** 3) - int(b0((i + 4), (j + 11), (k + 5)), 8))
      end do
      a1((i + 2), (j + 2), (i + 2)) = (a1((i + 2), (j + 2), (i + 2)) + (modulo(b2((j + 27)), 5) + &
      & (2 * (-1))))
      a1((i + 2), (j + 2), (mod((i - 2), 3) + 2)) = (a1((i + 2), (j + 2), (mod((i - 2), 3) + 2)) + &
      & abs(abs(b0((i + 6), (((1 * j) + ((-1) * i)) + 9), (modulo((j - 5), 2) + 1)))))
    end do
    a0(i, (mod(i, 3) + 5), i) = a1((i + 11), (i + 2), (i + 10))
    a0(i, i, i) = (((3 * b0((i + 4), (i + 11), (i + 5))) + (2 * b0((i + 4), (i + 11), (i + 4)))) + &
      & (2 * b0((i + 4), (i + 11), ((i + 4) + 2))))
  end do
!$translate end kernel
  ires(0) = int(i, 8)
!$translate kernel p9_r1
  s2 = 1.0
  do i = 1, (n + 1), 3
    do j = (n - 1), 0, -1
      if (real(b2((i + 23)), 8) >= (real(n, 8) - real(b0((modulo((j - 2), (-3)) + 5), (j + 6), (j + &
      & 4)), 8))) then
        t3 = ((abs(int(b2((i + 15)), 8)) + 1_8) ** (-1))
      else
        t3 = (int(b2((i + 28)), 8) ** 2)
      end if
      a0(i, (j - 1), (1 * j)) = modulo(min(1_8, (-3_8)), 2_8)
      a1((i + 2), (j + 2), (j + 2)) = (a1((i + 2), (j + 2), (j + 2)) + b0(i, (ix((i + 8)) + 3), (j &
      & + 4)))
    end do
    a1((mod((i - 1), 3) + 2), (i + 2), (ix(((2 * i) - 1)) + 2)) = (b2((modulo((i + 2), 2) + 35)) ** &
      & 0)
    a1((i + 2), (i + 2), (i + 2)) = (a1((i + 2), (i + 2), (i + 2)) + modulo((b2((ix((i + 1)) + 2)) &
      & * i), 2))
    a1((i + 2), (i + 2), (i + 2)) = (((((2 * b0((i + 2), (i + 1), (i + 1))) + ((-1) * b0((i + 1), &
      & (i + 1), (i + 1)))) + ((-1) * b0(((i + 1) + 2), (i + 1), (i + 1)))) + (1 * b0((i + 2), i, &
      & (i + 1)))) + (1 * b0((i + 2), (i + 2), (i + 1))))
  end do
!$translate end kernel
  fres(0) = real(s2, 8)
!$translate kernel p9_r2
!$translate split_iname("j", 2, outer_tag="g.0", inner_tag="l.0")
!$translate split_iname("k", 4, outer_tag="g.1", inner_tag="l.1")
  s4 = 1.0
  do i = 4, (-1), -3
    a0(i, i, i) = b2((modulo((i - 5), 3) + 12))
    do j = 1, n
      t5 = mod(mod(b2((i + 24)), (-2)), 4)
      do k = (j + 1), n, 3
        a1((j + 2), ((1 * i) + 2), (k - 2)) = ((b0((mod(i, 3) + 8), (j + 3), (j + 4)) * b0((i + 4), &
      & ((1 * k) + (1 * i)), ((2 * i) + 3))) - (5 - b2((((1 * j) + ((-1) * k)) + 28))))
        a1((i + 2), (j + 2), (k + 2)) = (((2 * b2((i + 23))) + (3 * b2(((i + 25) - 3)))) + (3 * &
      & b2(((i + 25) - 1))))
        s4 = (s4 * real(uf((i + 6)), 4))
      end do
      a0(i, j, (j + 2)) = ((int(b0((i + 6), (j + 5), (j + 1)), 8) ** mod(abs(i), 3)) - (b2((i + &
      & 11)) - int(b0((i + 5), (j + 2), (ix((mod((j + 2), 3) + 10)) + 2)), 8)))
    end do
    a0(i, (i + 2), i) = max(max(int(a1((i + 2), (i + 2), (i + 2)), 8), int(b2((i + 30)), 8)), &
      & (b0((i + 8), ((i / 3) + 1), (i + 8)) - (-3_8)))
    a0(i, i, i) = i
  end do
!$translate end kernel
  fres(1) = real(s4, 8)
end subroutine p9

subroutine run9()
  implicit none
  integer :: q
  integer :: b0(1:12, 1:12, 1:12)
  real(8) :: b1(-2:37)
  integer :: b2(-2:37)
  integer(8) :: a0(-2:9, -2:9, -2:9)
  integer :: a1(0:11, 0:11, 0:11)
  integer :: ix(1:16)
  real(8) :: uf(0:39)
  integer :: ui(1:40)
  integer(8) :: ires(0:7)
  real(8) :: fres(0:7)
  b0 = reshape([(int(mod(q*7 + 3, 17) - 8, 4), q = 0, 1727)], shape(b0))
  b1 = reshape([(real(real(mod(q*7 + 3, 17) - 8, 8) / 4, 8), q = 0, 39)], shape(b1))
  b2 = reshape([(int(mod(q*7 + 3, 17) - 8, 4), q = 0, 39)], shape(b2))
  a0 = reshape([(int(mod(q*3 + 1, 13) - 6, 8), q = 0, 1727)], shape(a0))
  a1 = reshape([(int(mod(q*3 + 1, 13) - 6, 4), q = 0, 1727)], shape(a1))
  ix = reshape([(int(mod(q*3 + 1, 8), 4), q = 0, 15)], shape(ix))
  uf = reshape([(real(1 - 2*mod(q/3, 2), 8), q = 0, 39)], shape(uf))
  ui = reshape([(int(1 - 2*mod(q/3, 2), 4), q = 0, 39)], shape(ui))
  ires = reshape([(int(0, 8), q = 0, 7)], shape(ires))
  fres = reshape([(real(0, 8), q = 0, 7)], shape(fres))
  call p9(7, 3, b0, b1, b2, a0, a1, ix, uf, ui, ires, fres)
  write(*, '(A)') '@case 9'
  write(*, '(A)') 'a0'
  write(*, '(I0)') a0
  write(*, '(A)') 'a1'
  write(*, '(I0)') a1
  write(*, '(A)') 'ires'
  write(*, '(I0)') ires
  write(*, '(A)') 'fres'
  write(*, '(ES25.16E3)') fres
end subroutine run9

program main
  call run9()
end program main
