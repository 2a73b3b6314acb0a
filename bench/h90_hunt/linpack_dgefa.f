c translate-test: translate=--directives=openmp,translate
c LINPACK dgefa's column updates under c$omp parallel do as an OpenMP port marks them
c (j = kp1, n with kp1 = k + 1 set before; a(lda, *)): parallel only if kp1 > k and
c n <= lda, which the directive's loop cannot see: refused with a witness.
      program gefa
      implicit none
      integer n
      parameter (n = 32)
      double precision a(n, n)
      integer ipvt(n), info, i, j
      do 20 j = 1, n
         do 10 i = 1, n
            a(i, j) = dble(mod(i*7 + j*13, 31)) / 31.0d0 - 0.5d0
   10    continue
         a(j, j) = a(j, j) + 4.0d0
   20 continue
      call dgefa(a, n, n, ipvt, info)
      write (*, '(i4, 2es24.15)') info, a(1, 1), a(n, n)
      end

      subroutine dgefa(a, lda, n, ipvt, info)
      integer lda, n, ipvt(*), info
      double precision a(lda, *), t
      integer j, k, kp1, l, i
      info = 0
      do 60 k = 1, n - 1
         kp1 = k + 1
         l = k
         do 5 i = k + 1, n
            if (abs(a(i, k)) .gt. abs(a(l, k))) l = i
    5    continue
         ipvt(k) = l
         t = a(l, k)
         a(l, k) = a(k, k)
         a(k, k) = t
         t = -1.0d0/a(k, k)
         do 8 i = k + 1, n
            a(i, k) = t*a(i, k)
    8    continue
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
   60 continue
      ipvt(n) = n
      return
      end
