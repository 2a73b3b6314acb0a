c translate-test: translate=--directives=openmp rtol=1e-13
      program npbish
      implicit none
      integer n1, n2, n3
      parameter (n1 = 18, n2 = 14, n3 = 11)
      double precision u(n1,n2,n3), r(n1,n2,n3), v(n1,n2,n3)
      double precision a(0:3), rnm2, rnmu
      integer i1, i2, i3
      common /coefs/ a
      a(0) = -8.0d0/3.0d0
      a(1) =  0.0d0
      a(2) =  1.0d0/6.0d0
      a(3) =  1.0d0/12.0d0
      do 30 i3 = 1, n3
         do 20 i2 = 1, n2
            do 10 i1 = 1, n1
               u(i1,i2,i3) = dble(mod(i1*7 + i2*3 + i3, 11)) * 0.1d0
               v(i1,i2,i3) = dble(i1 - i2) * 0.01d0 + dble(i3) * 1.0d-3
 10         continue
 20      continue
 30   continue
      call resid(u, v, r, n1, n2, n3, a)
      call norm2u3(r, n1, n2, n3, rnm2, rnmu)
      write(*, '(2ES24.16)') rnm2, rnmu
      write(*, '(3ES24.16)') r(2,2,2), r(n1-1,n2-1,n3-1), r(9,7,5)
      end

      subroutine resid(u, v, r, n1, n2, n3, a)
      implicit none
      integer n1, n2, n3
      double precision u(n1,n2,n3), v(n1,n2,n3), r(n1,n2,n3), a(0:3)
      integer i3, i2, i1
      double precision u1(200), u2(200)
!$omp parallel do default(shared) private(i1,i2,i3,u1,u2)
      do i3 = 2, n3-1
         do i2 = 2, n2-1
            do i1 = 1, n1
               u1(i1) = u(i1,i2-1,i3) + u(i1,i2+1,i3)
     >                + u(i1,i2,i3-1) + u(i1,i2,i3+1)
               u2(i1) = u(i1,i2-1,i3-1) + u(i1,i2+1,i3-1)
     >                + u(i1,i2-1,i3+1) + u(i1,i2+1,i3+1)
            enddo
            do i1 = 2, n1-1
               r(i1,i2,i3) = v(i1,i2,i3)
     >                     - a(0) * u(i1,i2,i3)
     >                     - a(2) * ( u2(i1) + u1(i1-1) + u1(i1+1) )
     >                     - a(3) * ( u2(i1-1) + u2(i1+1) )
            enddo
         enddo
      enddo
      do i3 = 1, n3, n3 - 1
         do i2 = 1, n2
            do i1 = 1, n1
               r(i1,i2,i3) = 0.0d0
            enddo
         enddo
      enddo
      do i3 = 1, n3
         do i2 = 1, n2
            r(1,i2,i3) = 0.0d0
            r(n1,i2,i3) = 0.0d0
         enddo
         do i1 = 1, n1
            r(i1,1,i3) = 0.0d0
            r(i1,n2,i3) = 0.0d0
         enddo
      enddo
      return
      end

      subroutine norm2u3(r, n1, n2, n3, rnm2, rnmu)
      implicit none
      integer n1, n2, n3
      double precision r(n1,n2,n3), rnm2, rnmu, s, a
      integer i3, i2, i1
      s = 0.0d0
      rnmu = 0.0d0
!$omp parallel do default(shared) private(i1,i2,i3,a) reduction(+:s)
!$omp& reduction(max:rnmu)
      do i3 = 2, n3-1
         do i2 = 2, n2-1
            do i1 = 2, n1-1
               s = s + r(i1,i2,i3)**2
               a = abs(r(i1,i2,i3))
               rnmu = dmax1(rnmu, a)
            enddo
         enddo
      enddo
      rnm2 = dsqrt(s / dble((n1-2)*(n2-2)*(n3-2)))
      return
      end
