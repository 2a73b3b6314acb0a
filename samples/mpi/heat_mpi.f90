! 2-D heat equation, the rows split over the MPI ranks (1-D domain decomposition).
!
! Each rank holds nxl rows and ny columns of the grid, plus one halo row on each side.  In
! Fortran's column-major order a row is strided: the field stays on the device for the whole
! time loop (a data region), and every step the rank brings its two edge rows to the host
! (`update host` of two row sections: 2 x ny values, not the whole array), exchanges them
! with its neighbours by MPI_Sendrecv, and sends the two halo rows it received to the device
! (`update device`).  Rank r of p holds global rows r*nxl+1 .. (r+1)*nxl; the grid's outer
! boundary stays fixed.
!
! Build:  mpif90 heat_mpi.f90 -o heat_mpi; run: mpirun -np 2 ./heat_mpi
! Rank 0 prints every rank's checksum.
program heat_mpi
  use mpi
  implicit none
  integer, parameter :: nxl = 40, ny = 56, steps = 20
  real(8) :: u(0:nxl+1, 0:ny+1), unew(0:nxl+1, 0:ny+1)
  real(8) :: mine
  real(8), allocatable :: all(:)
  integer :: rank, nranks, left, right, ierr, i, j, t, r

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  left = rank - 1
  right = rank + 1
  if (rank == 0) left = MPI_PROC_NULL
  if (rank == nranks - 1) right = MPI_PROC_NULL
  do j = 0, ny + 1
     do i = 0, nxl + 1
        u(i, j) = dble(mod((rank*nxl + i)*7 + j*3, 17)) / 16d0
        unew(i, j) = u(i, j)
     end do
  end do

  !$translate data copy(u) copyin(unew)
  do t = 1, steps
     !$translate update host(u(1:1, 1:ny), u(nxl:nxl, 1:ny))
     call MPI_Sendrecv(u(1, 1:ny), ny, MPI_DOUBLE_PRECISION, left, 0, &
                       u(nxl+1, 1:ny), ny, MPI_DOUBLE_PRECISION, right, 0, &
                       MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
     call MPI_Sendrecv(u(nxl, 1:ny), ny, MPI_DOUBLE_PRECISION, right, 1, &
                       u(0, 1:ny), ny, MPI_DOUBLE_PRECISION, left, 1, &
                       MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
     !$translate update device(u(0:0, 1:ny), u(nxl+1:nxl+1, 1:ny))
     !$translate kernel heat_step_f
     do j = 1, ny
        do i = 1, nxl
           unew(i, j) = u(i, j) + 0.1d0*(u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1) &
                                         - 4d0*u(i, j))
        end do
     end do
     !$translate end kernel
     !$translate kernel heat_store_f
     do j = 1, ny
        do i = 1, nxl
           u(i, j) = unew(i, j)
        end do
     end do
     !$translate end kernel
  end do
  !$translate end data

  mine = 0d0
  do j = 1, ny
     do i = 1, nxl
        mine = mine + u(i, j)*dble(i + j)
     end do
  end do
  allocate(all(nranks))
  call MPI_Gather(mine, 1, MPI_DOUBLE_PRECISION, all, 1, MPI_DOUBLE_PRECISION, 0, &
                  MPI_COMM_WORLD, ierr)
  if (rank == 0) then
     do r = 1, nranks
        write(*, '(a, i3, a, es24.16)') 'rank ', r - 1, ' checksum ', all(r)
     end do
  end if
  call MPI_Finalize(ierr)
end program heat_mpi
