c translate-test: translate=--directives=openmp rtol=1e-13
      program ompnpb
      implicit none
      integer nx, ny, nz
      parameter (nx=20, ny=18, nz=12)
      double precision u(5,nx,ny,nz), rhs(5,nx,ny,nz), work(5,nx)
      double precision flux(5), tmp, c1, c2
      integer i, j, k, m
      common /wrk/ flux
!$omp threadprivate(/wrk/)
      c1 = 1.4d0
      c2 = 0.4d0
      do k = 1, nz
         do j = 1, ny
            do i = 1, nx
               do m = 1, 5
                  u(m,i,j,k) = dble(m) + dble(i)*0.01d0
     >                 + dble(j*k)*1.0d-3
                  rhs(m,i,j,k) = 0.0d0
               end do
            end do
         end do
      end do
!$omp parallel do default(shared) private(i,j,k,m,work,tmp)
      do k = 2, nz-1
         do j = 2, ny-1
            do i = 1, nx
               tmp = 1.0d0 / u(1,i,j,k)
               work(1,i) = u(2,i,j,k) * tmp
               work(2,i) = u(3,i,j,k) * tmp
               work(3,i) = u(4,i,j,k) * tmp
               work(4,i) = c1 * u(5,i,j,k) - c2 * 0.5d0 * (u(2,i,j,k)**2
     >              + u(3,i,j,k)**2 + u(4,i,j,k)**2) * tmp
               work(5,i) = tmp
            end do
            do i = 2, nx-1
               do m = 1, 5
                  rhs(m,i,j,k) = work(m,i+1) - 2.0d0*work(m,i)
     >                 + work(m,i-1)
               end do
            end do
         end do
      end do
!$omp end parallel do
!$omp parallel do private(j,i,m)
      do k = 2, nz-1
         do j = 2, ny-1
            do i = 2, nx-1
               do m = 1, 5
                  flux(m) = rhs(m,i,j,k) * 0.5d0
               end do
               do m = 1, 5
                  rhs(m,i,j,k) = rhs(m,i,j,k) + flux(m) * dble(m)
               end do
            end do
         end do
      end do
      tmp = 0.0d0
      do k = 1, nz
         do j = 1, ny
            do i = 1, nx
               do m = 1, 5
                  tmp = tmp + rhs(m,i,j,k) * dble(m + i)
               end do
            end do
         end do
      end do
      write(*,'(2ES24.16)') tmp, rhs(3,5,6,7)
      end
