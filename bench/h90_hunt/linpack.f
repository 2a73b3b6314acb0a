c translate-test: translate=--directives=openmp,translate rtol=1e-12
c LINPACK/BLAS-1 in their legacy form (fixed form, labels, GO TO): daxpy, ddot, dscal with
c m = mod(n,5) clean-up loops and unrolled step-5 main loops under c$omp parallel do, the
c incx /= 1 paths as translate regions (ix, iy inductions: sequential), idamax's arg-max as
c a translate region, dgefa with its column updates inlined in the pivot loop, dgesl.
      program linpk
      implicit none
      integer n, lda
      parameter (n = 64, lda = 65)
      double precision a(lda, n), b(n), x(n), y(2*n), s, ddot
      integer ipvt(n), info, i, j, idamax, k
      do 20 j = 1, n
         do 10 i = 1, n
            a(i, j) = dble(mod(i*7 + j*13, 31)) / 31.0d0 - 0.5d0
   10    continue
         a(j, j) = a(j, j) + 4.0d0
   20 continue
      do 30 i = 1, n
         b(i) = 0.0d0
         x(i) = 1.0d0 + 0.01d0*dble(mod(i, 9))
   30 continue
      do 50 j = 1, n
         do 40 i = 1, n
            b(i) = b(i) + a(i, j)*x(j)
   40    continue
   50 continue
      do 60 i = 1, 2*n
         y(i) = 0.5d0*dble(mod(i, 5))
   60 continue
      call daxpy(n, 0.25d0, x, 1, y, 1)
      call daxpy(n/2, -0.5d0, x, 2, y, 2)
      call daxpy(n/2, 0.75d0, x, -2, y, 1)
      s = ddot(n, x, 1, y, 1) + ddot(n/2, x, 2, y, 2)
      call dscal(n, 1.5d0, y, 1)
      call dscal(n/2, 0.5d0, y, 2)
      k = idamax(n, y, 1) + idamax(n/2, y, 2)
      write (*, '(es24.15, i6)') s, k
      call dgefa(a, lda, n, ipvt, info)
      call dgesl(a, lda, n, ipvt, b)
      s = 0.0d0
      do 70 i = 1, n
         s = s + abs(b(i) - x(i))
   70 continue
      write (*, '(i4, 3es24.15)') info, b(1), b(n), s
      write (*, '(8i4)') (ipvt(i), i = 1, 8)
      end

      subroutine daxpy(n, da, dx, incx, dy, incy)
      double precision dx(*), dy(*), da
      integer i, incx, incy, ix, iy, m, mp1, n
      if (n .le. 0) return
      if (da .eq. 0.0d0) return
      if (incx .eq. 1 .and. incy .eq. 1) go to 20
      ix = 1
      iy = 1
      if (incx .lt. 0) ix = (-n + 1)*incx + 1
      if (incy .lt. 0) iy = (-n + 1)*incy + 1
      do 10 i = 1, n
         dy(iy) = dy(iy) + da*dx(ix)
         ix = ix + incx
         iy = iy + incy
   10 continue
      return
   20 m = mod(n, 4)
      if (m .eq. 0) go to 40
c$omp parallel do
      do 30 i = 1, m
         dy(i) = dy(i) + da*dx(i)
   30 continue
      if (n .lt. 4) return
   40 mp1 = m + 1
c$omp parallel do
      do 50 i = mp1, n, 4
         dy(i) = dy(i) + da*dx(i)
         dy(i + 1) = dy(i + 1) + da*dx(i + 1)
         dy(i + 2) = dy(i + 2) + da*dx(i + 2)
         dy(i + 3) = dy(i + 3) + da*dx(i + 3)
   50 continue
      return
      end

      double precision function ddot(n, dx, incx, dy, incy)
      double precision dx(*), dy(*), dtemp
      integer i, incx, incy, ix, iy, m, mp1, n
      ddot = 0.0d0
      dtemp = 0.0d0
      if (n .le. 0) return
      if (incx .eq. 1 .and. incy .eq. 1) go to 20
      ix = 1
      iy = 1
      if (incx .lt. 0) ix = (-n + 1)*incx + 1
      if (incy .lt. 0) iy = (-n + 1)*incy + 1
      do 10 i = 1, n
         dtemp = dtemp + dx(ix)*dy(iy)
         ix = ix + incx
         iy = iy + incy
   10 continue
      ddot = dtemp
      return
   20 m = mod(n, 5)
      if (m .eq. 0) go to 40
c$omp parallel do reduction(+:dtemp)
      do 30 i = 1, m
         dtemp = dtemp + dx(i)*dy(i)
   30 continue
      if (n .lt. 5) go to 60
   40 mp1 = m + 1
c$omp parallel do reduction(+:dtemp)
      do 50 i = mp1, n, 5
         dtemp = dtemp + dx(i)*dy(i) + dx(i + 1)*dy(i + 1) +
     *    dx(i + 2)*dy(i + 2) + dx(i + 3)*dy(i + 3) +
     *    dx(i + 4)*dy(i + 4)
   50 continue
   60 ddot = dtemp
      return
      end

      subroutine dscal(n, da, dx, incx)
      double precision da, dx(*)
      integer i, incx, m, mp1, n, nincx
      if (n .le. 0 .or. incx .le. 0) return
      if (incx .eq. 1) go to 20
      nincx = n*incx
c$omp parallel do
      do 10 i = 1, nincx, incx
         dx(i) = da*dx(i)
   10 continue
      return
   20 m = mod(n, 5)
      if (m .eq. 0) go to 40
c$omp parallel do
      do 30 i = 1, m
         dx(i) = da*dx(i)
   30 continue
      if (n .lt. 5) return
   40 mp1 = m + 1
c$omp parallel do
      do 50 i = mp1, n, 5
         dx(i) = da*dx(i)
         dx(i + 1) = da*dx(i + 1)
         dx(i + 2) = da*dx(i + 2)
         dx(i + 3) = da*dx(i + 3)
         dx(i + 4) = da*dx(i + 4)
   50 continue
      return
      end

      integer function idamax(n, dx, incx)
      double precision dx(*), dmax
      integer i, incx, ix, n
      idamax = 0
      if (n .lt. 1 .or. incx .le. 0) return
      idamax = 1
      if (n .eq. 1) return
      if (incx .eq. 1) go to 20
      ix = 1
      dmax = dabs(dx(1))
      ix = ix + incx
      do 10 i = 2, n
         if (dabs(dx(ix)) .gt. dmax) then
            idamax = i
            dmax = dabs(dx(ix))
         end if
         ix = ix + incx
   10 continue
      return
   20 dmax = dabs(dx(1))
c$translate kernel idamax_k
      do 30 i = 2, n
         if (dabs(dx(i)) .gt. dmax) then
            idamax = i
            dmax = dabs(dx(i))
         end if
   30 continue
c$translate end kernel
      return
      end

      subroutine dgefa(a, lda, n, ipvt, info)
      integer lda, n, ipvt(*), info
      double precision a(lda, *), t
      integer idamax, j, k, kp1, l, nm1, i
      info = 0
      nm1 = n - 1
      if (nm1 .lt. 1) go to 70
      do 60 k = 1, nm1
         kp1 = k + 1
         l = idamax(n - k + 1, a(k, k), 1) + k - 1
         ipvt(k) = l
         if (a(l, k) .eq. 0.0d0) go to 40
         if (l .eq. k) go to 10
            t = a(l, k)
            a(l, k) = a(k, k)
            a(k, k) = t
   10    continue
         t = -1.0d0/a(k, k)
         call dscal(n - k, t, a(k + 1, k), 1)
c the pivot row's columns: kp1 = k + 1 and n <= lda are facts of the caller (without them:
c linpack_dgefa.f, refused)
c$translate kernel dgefa_cols
c$translate assume("kp1 = k + 1 and n <= lda")
c$omp parallel do private(t, i)
         do 30 j = kp1, n
            t = a(l, j)
            if (l .ne. k) then
               a(l, j) = a(k, j)
               a(k, j) = t
            end if
            do 20 i = k + 1, n
               a(i, j) = a(i, j) + t*a(i, k)
   20       continue
   30    continue
c$translate end kernel
         go to 50
   40    continue
            info = k
   50    continue
   60 continue
   70 continue
      ipvt(n) = n
      if (a(n, n) .eq. 0.0d0) info = n
      return
      end

      subroutine dgesl(a, lda, n, ipvt, b)
      integer lda, n, ipvt(*)
c b(n), not LINPACK's b(1): the region's b(l) (l = ipvt(k)) gives no footprint
      double precision a(lda, *), b(n), t
      integer k, kb, l, nm1, i
      nm1 = n - 1
      if (nm1 .lt. 1) go to 30
c$translate kernel dgesl_forward
      do 20 k = 1, nm1
         l = ipvt(k)
         t = b(l)
         if (l .ne. k) then
            b(l) = b(k)
            b(k) = t
         end if
         do 10 i = k + 1, n
            b(i) = b(i) + t*a(i, k)
   10    continue
   20 continue
c$translate end kernel
   30 continue
      do 50 kb = 1, n
         k = n + 1 - kb
         b(k) = b(k)/a(k, k)
         t = -b(k)
c$omp parallel do
         do 40 i = 1, k - 1
            b(i) = b(i) + t*a(i, k)
   40    continue
   50 continue
      return
      end
