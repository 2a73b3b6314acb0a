! translate-test: translate=--directives=openacc rtol=1e-13
module solver
  implicit none
  integer, parameter :: nx = 34, ny = 26
  real(8) :: phi(0:nx+1, 0:ny+1), phin(0:nx+1, 0:ny+1), rhs(nx, ny)
  !$acc declare create(phi, phin, rhs)
contains
  subroutine jacobi(iters, err)
    integer, intent(in) :: iters
    real(8), intent(out) :: err
    integer :: i, j, it
    do it = 1, iters
      err = 0.0d0
      !$acc parallel loop tile(8, 4) reduction(max:err) present(phi, phin, rhs)
      do j = 1, ny
        do i = 1, nx
          phin(i, j) = 0.25d0 * (phi(i-1, j) + phi(i+1, j) + phi(i, j-1) + phi(i, j+1) - rhs(i, j))
          err = max(err, abs(phin(i, j) - phi(i, j)))
        end do
      end do
      !$acc kernels loop independent present(phi, phin)
      do j = 1, ny
        !$acc loop worker
        do i = 1, nx
          phi(i, j) = phin(i, j)
        end do
      end do
    end do
  end subroutine jacobi
end module solver

program acc_more
  use solver
  implicit none
  integer :: i, j
  real(8) :: err, tot
  do j = 0, ny + 1
    do i = 0, nx + 1
      phi(i, j) = 0.0d0
      phin(i, j) = 0.0d0
    end do
  end do
  do j = 1, ny
    do i = 1, nx
      rhs(i, j) = sin(dble(i) * 0.2d0) * cos(dble(j) * 0.3d0) * 1.0d-2
    end do
  end do
  do i = 0, nx + 1
    phi(i, 0) = 1.0d0
  end do
  !$acc enter data copyin(phi, rhs) create(phin)
  call jacobi(20, err)
  !$acc exit data copyout(phi) delete(phin, rhs)
  tot = 0.0d0
  do j = 1, ny
    do i = 1, nx
      tot = tot + phi(i, j) * dble(i + j)
    end do
  end do
  write(*, '(3ES24.16)') err, tot, phi(5, 3)
end program acc_more
