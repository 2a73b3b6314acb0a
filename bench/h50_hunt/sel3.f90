program sel3
  implicit none
  integer, parameter :: n = 1001, m = 37
  real(8) :: a(n), b(n, m), r, rmin(m)
  real(4) :: f(n), fr
  integer :: i, j, loc, locj, ib(n, m), im, rloc(m)
  logical :: mask(n)
  do i = 1, n
    a(i) = dble(mod(i * 37, 11))
    f(i) = real(mod(i * 17, 13)) - 6.0
    mask(i) = mod(i, 4) /= 1
  end do
  do j = 1, m
    do i = 1, n
      b(i, j) = dble(mod(i * 13 + j * 7, 23))
      ib(i, j) = mod(i * 5 + j * 3, 19)
    end do
  end do
  r = 1d300; loc = -1
  !$translate kernel rev
  do i = n, 1, -1
    if (a(i) < r) then
      r = a(i)
      loc = i
    end if
  end do
  !$translate end kernel
  print *, 'rev', r, loc
  r = 1d300; loc = -1
  !$translate kernel rev_le
  do i = n, 1, -1
    if (a(i) <= r) then
      r = a(i)
      loc = i
    end if
  end do
  !$translate end kernel
  print *, 'revle', r, loc
  r = 1d300; loc = -1; locj = -1
  !$translate kernel twod
  do j = 1, m
    do i = 1, n
      if (b(i, j) <= r) then
        r = b(i, j)
        loc = i
        locj = j
      end if
    end do
  end do
  !$translate end kernel
  print *, '2d', r, loc, locj
  im = huge(im); loc = 0
  !$translate kernel intsel
  do j = 1, m
    do i = 1, n
      if (ib(i, j) < im) then
        im = ib(i, j)
        loc = i + (j - 1) * n
      end if
    end do
  end do
  !$translate end kernel
  print *, 'int', im, loc
  !$translate kernel rows
  do j = 1, m
    rmin(j) = 1d300
    rloc(j) = 0
    do i = 1, n
      if (b(i, j) < rmin(j)) then
        rmin(j) = b(i, j)
        rloc(j) = i
      end if
    end do
  end do
  !$translate end kernel
  print *, sum(rmin), sum(rloc * (/ (j, j = 1, m) /))
  fr = 1e30; loc = 0
  !$translate kernel fsel
  do i = 1, n, 2
    if (f(i) <= fr) then
      fr = f(i)
      loc = i
    end if
  end do
  !$translate end kernel
  print *, 'f', fr, loc
  r = -1d300
  !$translate kernel mergesel
  do i = 1, n
    r = merge(a(i) * 2d0 - 1d0, r, a(i) * 2d0 - 1d0 > r)
  end do
  !$translate end kernel
  print *, 'merge', r
  r = -1d300; loc = 0
  !$translate kernel masked
  do i = 1, n
    if (mask(i)) then
      if (a(i) > r) then
        r = a(i)
        loc = i
      end if
    end if
  end do
  !$translate end kernel
  print *, 'masked', r, loc
  r = 1d300
  !$translate kernel minintr
  do i = 1, n
    r = min(r, a(i) + 1d0)
  end do
  !$translate end kernel
  print *, 'min', r
  im = -5; loc = 0
  !$translate kernel intmax
  do i = 1, n
    if (mod(i, 5) > im) then
      im = mod(i, 5)
      loc = i
    end if
  end do
  !$translate end kernel
  print *, 'intmax', im, loc
end program
