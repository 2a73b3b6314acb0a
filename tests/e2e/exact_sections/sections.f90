! Exact sections: data clauses and updates of strided sections (rows of a Fortran array, a
! 4-D box) move exactly their elements; tests/e2e/test_exact_sections.py checks the bytes.
program sections
  implicit none
  integer, parameter :: n = 6, m = 5
  real(8) :: u(n, m), v(n, m), w(4, 3, 3, 2)
  integer :: i, j, k, l
  do j = 1, m
     do i = 1, n
        u(i, j) = i + 10*j
        v(i, j) = i - 10*j
     end do
  end do
  do l = 1, 2
     do k = 1, 3
        do j = 1, 3
           do i = 1, 4
              w(i, j, k, l) = i + 10*j + 100*k + 1000*l
           end do
        end do
     end do
  end do
  ! data clauses on a row section (strided): only the section comes back at the end
  !$translate data copy(v(1:2, :))
  v(3, 1) = -7d0          ! inside the section's span, outside the section
  !$translate end data
  !$translate enter data copyin(v(2:3, 2:m))
  v(4, 2) = -8d0
  !$translate exit data copyout(v(2:3, 2:m))
  !$translate data copy(u, w)
  !$translate kernel whole
  do j = 1, m
     do i = 1, n
        u(i, j) = u(i, j) + 1000
     end do
  end do
  !$translate end kernel
  ! the host takes row 1 and column 2 and changes them; the device keeps the rest
  !$translate update host(u(1:1, :), u(:, 2:2), u(2:n-1, 4))
  print '(6f9.1)', u(1, :)
  print '(6f9.1)', u(:, 2)
  print '(6f9.1)', u(2:n-1, 4)
  u(1, :) = -u(1, :)
  u(:, 2) = 0.5d0*u(:, 2)
  !$translate update device(u(1:1, :), u(:, 2:2))
  !$translate kernel again
  do j = 1, m
     do i = 1, n
        u(i, j) = u(i, j) + 1
     end do
  end do
  !$translate end kernel
  !$translate kernel w4
  do l = 1, 2
     do k = 1, 3
        do j = 1, 3
           do i = 1, 4
              w(i, j, k, l) = -w(i, j, k, l)
           end do
        end do
     end do
  end do
  !$translate end kernel
  !$translate update host(w(2:3, 1:2, 2:2, 1:2))
  print '(8f9.1)', w(2:3, 1:2, 2, 1:2)
  w(2:3, 1:2, 2, 1:2) = 0d0
  !$translate update device(w(2:3, 1:2, 2:2, 1:2))
  !$translate end data
  print '(6f9.1)', u
  print '(6f9.1)', v
  print '(12f8.1)', w
end program sections
