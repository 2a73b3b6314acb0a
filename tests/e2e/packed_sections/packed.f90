! Sections of narrow rows (packed on the device with TRANSLATE_PACK_ROWS): halo rows of
! column-major arrays of 8- and 4-byte elements and of 1-byte integers, sizes that are
! multiples of nothing, a 3-D slice, data clauses, updates both ways, with and without async
! queues; the host changes elements between the rows of each section, so a copy that is not
! exact shows in the output (tests/e2e/test_packed_sections.py).
program packed
  implicit none
  integer, parameter :: n = 11, m = 71
  real(8) :: u(n, m), w(9, 7, 5)
  real(4) :: r(n, m)
  integer(1) :: b(n, m)
  integer :: i, j, k
  do j = 1, m
     do i = 1, n
        u(i, j) = i + 100*j
        r(i, j) = real(i - 100*j, 4)
        b(i, j) = int(mod(i + 3*j, 100), 1)
     end do
  end do
  do k = 1, 5
     do j = 1, 7
        do i = 1, 9
           w(i, j, k) = i + 10*j + 100*k
        end do
     end do
  end do
  ! data clauses on rows of 4-byte reals (3 rows: 12 bytes) and of 1-byte integers; their
  ! updates of fewer rows are rectangular copies where TRANSLATE_PACK_ROWS packs only the data
  ! clauses' copies (then a packed copy that puts the rows in the wrong places shows)
  !$translate data copy(r(2:4, :), b(5:6, :))
  r(5, 3) = -1.5          ! outside the sections, inside their spans: kept
  b(4, 9) = -3
  !$translate update host(r(3:3, 2:m-1), b(6:6, 3:m-2))
  print '(6f10.1)', r(3, 2:m-1)
  print '(20i4)', b(6, 3:m-2)
  r(3, 2:m-1) = 2*r(3, 2:m-1) + 1
  b(6, 3:m-2) = int(-b(6, 3:m-2), 1)
  !$translate update device(r(3:3, 2:m-1), b(6:6, 3:m-2))
  !$translate end data
  !$translate enter data copyin(b(n:n, :))
  b(n-1, 4) = -4
  !$translate exit data copyout(b(n:n, :))
  !$translate data copy(u, w)
  !$translate kernel step
  do j = 1, m
     do i = 1, n
        u(i, j) = 2*u(i, j) + 1
     end do
  end do
  !$translate end kernel
  ! synchronous: the first and last rows and 3 rows (24 bytes) of most columns
  !$translate update host(u(1:1, :), u(n:n, :), u(4:6, 2:m-3))
  print '(6f12.1)', u(1, :)
  print '(6f12.1)', u(n, :)
  print '(6f12.1)', u(4:6, 2:m-3)
  u(1, :) = -u(1, :)
  u(n, :) = 0.5d0*u(n, :)
  !$translate update device(u(1:1, :), u(n:n, :))
  !$translate kernel again async(1)
  do j = 1, m
     do i = 1, n
        u(i, j) = u(i, j) + 3
     end do
  end do
  !$translate end kernel
  ! async: the host sees the rows at the wait
  !$translate update host(u(2:2, :), u(7:8, 3:m-2)) async(1)
  !$translate wait(1)
  print '(6f12.1)', u(2, :)
  print '(6f12.1)', u(7:8, 3:m-2)
  u(2, :) = u(2, :) - 7
  !$translate update device(u(2:2, :)) async(2)
  !$translate kernel later async(2)
  do j = 1, m
     do i = 1, n
        u(i, j) = 3*u(i, j)
     end do
  end do
  !$translate end kernel
  !$translate wait(2)
  ! a 3-D slice: 5 slices of 4 columns of 2 values
  !$translate kernel negate
  do k = 1, 5
     do j = 1, 7
        do i = 1, 9
           w(i, j, k) = -w(i, j, k)
        end do
     end do
  end do
  !$translate end kernel
  !$translate update host(w(3:4, 2:5, :))
  print '(8f9.1)', w(3:4, 2:5, :)
  w(3:4, 2:5, :) = 0.5d0*w(3:4, 2:5, :)
  !$translate update device(w(3:4, 2:5, :))
  !$translate end data
  print '(6f12.1)', u
  print '(9f9.1)', w
  print '(11f9.1)', r
  print '(11i5)', b
end program packed
