c translate-test: translate=--directives=openmp,translate
c LINPACK daxpy's unequal-increment path in a translate region: ix, iy are inductions of
c run-time steps incx, incy (negative ones start from the far end), so the footprint of the
c assumed-size dy(*) is not affine: refused at the access, asking for an explicit extent.
      program strid
      implicit none
      double precision x(40), y(80)
      integer i
      do 10 i = 1, 80
         y(i) = 0.5d0*dble(mod(i, 5))
         if (i .le. 40) x(i) = 1.0d0 + 0.01d0*dble(mod(i, 9))
   10 continue
      call daxpy(20, 0.25d0, x, -2, y, 3)
      write (*, '(es24.15)') y(1) + y(40) + y(58)
      end

      subroutine daxpy(n, da, dx, incx, dy, incy)
      double precision dx(*), dy(*), da
      integer i, incx, incy, ix, iy, n
      ix = 1
      iy = 1
      if (incx .lt. 0) ix = (-n + 1)*incx + 1
      if (incy .lt. 0) iy = (-n + 1)*incy + 1
c$translate kernel daxpy_strided
      do 10 i = 1, n
         dy(iy) = dy(iy) + da*dx(ix)
         ix = ix + incx
         iy = iy + incy
   10 continue
c$translate end kernel
      return
      end
