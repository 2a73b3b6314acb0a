! translate-test: translate=--directives=openmp,openacc,translate rtol=1e-13
! Finite-element gathers as unstructured codes write them: element connectivity conn(1:4, e),
! nodal values gathered per element (xe = x(conn(n, e))), an element residual, an assembly by
! atomic scatter-add r(conn(n, e)) = r(conn(n, e)) + f.
module fe_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  subroutine elem_avg(ne, nn, conn, u, ue)
    integer, intent(in) :: ne, nn
    integer, intent(in) :: conn(:, :)
    real(dp), intent(in) :: u(:)
    real(dp), intent(out) :: ue(:)
    integer :: e, n
    real(dp) :: s
    !$omp parallel do private(n, s)
    do e = 1, ne
      s = 0.0_dp
      do n = 1, 4
        s = s + u(conn(n, e))
      end do
      ue(e) = 0.25_dp * s
    end do
    !$omp end parallel do
  end subroutine elem_avg

  subroutine assemble(ne, conn, ue, r)
    integer, intent(in) :: ne
    integer, intent(in) :: conn(:, :)
    real(dp), intent(in) :: ue(:)
    real(dp), intent(inout) :: r(:)
    integer :: e, n
    !$omp parallel do private(n)
    do e = 1, ne
      do n = 1, 4
        !$omp atomic update
        r(conn(n, e)) = r(conn(n, e)) + 0.25_dp * ue(e)
      end do
    end do
    !$omp end parallel do
  end subroutine assemble
end module fe_mod

program fe1
  use fe_mod
  implicit none
  integer, parameter :: nx = 40, ny = 30
  integer :: ne, nn, i, j, e, it
  integer, allocatable :: conn(:, :)
  real(dp), allocatable :: u(:), ue(:), r(:)
  nn = (nx + 1) * (ny + 1)
  ne = nx * ny
  allocate(conn(4, ne), u(nn), ue(ne), r(nn))
  do j = 1, ny
    do i = 1, nx
      e = i + (j - 1) * nx
      conn(1, e) = i + (j - 1) * (nx + 1)
      conn(2, e) = conn(1, e) + 1
      conn(3, e) = conn(2, e) + nx + 1
      conn(4, e) = conn(1, e) + nx + 1
    end do
  end do
  do i = 1, nn
    u(i) = sin(0.01_dp * i)
  end do
  do it = 1, 3
    call elem_avg(ne, nn, conn, u, ue)
    r = 0.0_dp
    call assemble(ne, conn, ue, r)
    u = 0.5_dp * u + 0.5_dp * r
  end do
  write(*, '(4ES24.16)') sum(u), u(1), u(nn / 2), u(nn)
end program fe1
