! translate-test: translate=--directives=openacc rtol=1e-13
module tea_kinds
  implicit none
  integer, parameter :: dp = selected_real_kind(15, 300)
end module tea_kinds

module tea_solver
  use tea_kinds
  implicit none
contains
  subroutine cg_init(x_min, x_max, y_min, y_max, halo, u, p, r, w, kx, ky, rx, ry, rro)
    integer, intent(in) :: x_min, x_max, y_min, y_max, halo
    real(kind=dp), dimension(x_min-halo:x_max+halo, y_min-halo:y_max+halo), intent(inout) :: u, p, r, w
    real(kind=dp), dimension(x_min-halo:x_max+halo, y_min-halo:y_max+halo), intent(in) :: kx, ky
    real(kind=dp), intent(in) :: rx, ry
    real(kind=dp), intent(out) :: rro
    integer :: j, k
    real(kind=dp) :: smvp
    rro = 0.0_dp
!$acc data present(u, p, r, w, kx, ky)
!$acc kernels
    do k = y_min, y_max
      do j = x_min, x_max
        smvp = (1.0_dp + (ky(j, k+1) + ky(j, k)) * ry + (kx(j+1, k) + kx(j, k)) * rx) * u(j, k) &
             - (ky(j, k+1) * u(j, k+1) + ky(j, k) * u(j, k-1)) * ry &
             - (kx(j+1, k) * u(j+1, k) + kx(j, k) * u(j-1, k)) * rx
        w(j, k) = smvp
        r(j, k) = u(j, k) - w(j, k)
        p(j, k) = r(j, k)
      end do
    end do
!$acc end kernels
!$acc parallel loop gang vector collapse(2) reduction(+:rro)
    do k = y_min, y_max
      do j = x_min, x_max
        rro = rro + r(j, k) * p(j, k)
      end do
    end do
!$acc end data
  end subroutine cg_init

  subroutine cg_calc_w(x_min, x_max, y_min, y_max, halo, p, w, kx, ky, rx, ry, pw)
    integer, intent(in) :: x_min, x_max, y_min, y_max, halo
    real(kind=dp), dimension(x_min-halo:x_max+halo, y_min-halo:y_max+halo), intent(in) :: p, kx, ky
    real(kind=dp), dimension(x_min-halo:x_max+halo, y_min-halo:y_max+halo), intent(inout) :: w
    real(kind=dp), intent(in) :: rx, ry
    real(kind=dp), intent(out) :: pw
    integer :: j, k
    pw = 0.0_dp
!$acc parallel loop gang reduction(+:pw) present(p, w, kx, ky)
    do k = y_min, y_max
!$acc loop vector reduction(+:pw)
      do j = x_min, x_max
        w(j, k) = (1.0_dp + (ky(j, k+1) + ky(j, k)) * ry + (kx(j+1, k) + kx(j, k)) * rx) * p(j, k) &
                - (ky(j, k+1) * p(j, k+1) + ky(j, k) * p(j, k-1)) * ry &
                - (kx(j+1, k) * p(j+1, k) + kx(j, k) * p(j-1, k)) * rx
        pw = pw + w(j, k) * p(j, k)
      end do
    end do
  end subroutine cg_calc_w

  subroutine cg_calc_ur(x_min, x_max, y_min, y_max, halo, alpha, u, p, r, w, rrn)
    integer, intent(in) :: x_min, x_max, y_min, y_max, halo
    real(kind=dp), intent(in) :: alpha
    real(kind=dp), dimension(x_min-halo:x_max+halo, y_min-halo:y_max+halo), intent(inout) :: u, r
    real(kind=dp), dimension(x_min-halo:x_max+halo, y_min-halo:y_max+halo), intent(in) :: p, w
    real(kind=dp), intent(out) :: rrn
    integer :: j, k
    rrn = 0.0_dp
!$acc parallel loop collapse(2) reduction(+:rrn)
    do k = y_min, y_max
      do j = x_min, x_max
        u(j, k) = u(j, k) + alpha * p(j, k)
        r(j, k) = r(j, k) - alpha * w(j, k)
        rrn = rrn + r(j, k) * r(j, k)
      end do
    end do
  end subroutine cg_calc_ur

  subroutine cg_calc_p(x_min, x_max, y_min, y_max, halo, beta, p, r)
    integer, intent(in) :: x_min, x_max, y_min, y_max, halo
    real(kind=dp), intent(in) :: beta
    real(kind=dp), dimension(x_min-halo:x_max+halo, y_min-halo:y_max+halo), intent(inout) :: p
    real(kind=dp), dimension(x_min-halo:x_max+halo, y_min-halo:y_max+halo), intent(in) :: r
    integer :: j, k
!$acc parallel loop gang vector collapse(2)
    do k = y_min, y_max
      do j = x_min, x_max
        p(j, k) = beta * p(j, k) + r(j, k)
      end do
    end do
  end subroutine cg_calc_p
end module tea_solver

program tealike
  use tea_kinds
  use tea_solver
  implicit none
  integer, parameter :: x_min = 1, x_max = 33, y_min = 1, y_max = 21, halo = 2
  real(kind=dp), dimension(x_min-halo:x_max+halo, y_min-halo:y_max+halo) :: u, p, r, w, kx, ky
  real(kind=dp) :: rro, pw, rrn, alpha, beta
  integer :: j, k, it
  do k = y_min - halo, y_max + halo
    do j = x_min - halo, x_max + halo
      u(j, k) = 1.0_dp + 0.1_dp * sin(0.3_dp * j) * cos(0.2_dp * k)
      kx(j, k) = 1.0_dp + 0.01_dp * mod(j + 2 * k, 5)
      ky(j, k) = 1.0_dp + 0.02_dp * mod(3 * j + k, 7)
    end do
  end do
  p = 0; r = 0; w = 0
!$acc data copy(u, p, r, w) copyin(kx, ky)
  call cg_init(x_min, x_max, y_min, y_max, halo, u, p, r, w, kx, ky, 0.3_dp, 0.4_dp, rro)
  do it = 1, 5
    call cg_calc_w(x_min, x_max, y_min, y_max, halo, p, w, kx, ky, 0.3_dp, 0.4_dp, pw)
    alpha = rro / pw
    call cg_calc_ur(x_min, x_max, y_min, y_max, halo, alpha, u, p, r, w, rrn)
    beta = rrn / rro
    call cg_calc_p(x_min, x_max, y_min, y_max, halo, beta, p, r)
    rro = rrn
    write(*, '(I3, 3ES24.16)') it, alpha, beta, sqrt(rrn)
  end do
!$acc end data
  write(*, '(3ES24.16)') sum(u), sum(p), u(10, 10)
end program tealike
