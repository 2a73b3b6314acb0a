! translate-test: translate=--directives=openmp rtol=1e-13
module module_small_step
  implicit none
  integer, parameter :: rkind = 8
  real(kind=rkind), parameter :: g = 9.81_rkind, rgas = 287.0_rkind
contains
  subroutine advance_w(w, rw_tend, ww, u, v, mu, c2a, t_2, ph, msfty, rdx, rdy, dts, &
                       ids, ide, jds, jde, kds, kde, ims, ime, jms, jme, kms, kme, &
                       its, ite, jts, jte, kts, kte)
    integer, intent(in) :: ids, ide, jds, jde, kds, kde, ims, ime, jms, jme, kms, kme
    integer, intent(in) :: its, ite, jts, jte, kts, kte
    real(kind=rkind), dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: w
    real(kind=rkind), dimension(ims:ime, kms:kme, jms:jme), intent(in) :: rw_tend, ww, u, v, c2a, t_2, ph
    real(kind=rkind), dimension(ims:ime, jms:jme), intent(in) :: mu, msfty
    real(kind=rkind), intent(in) :: rdx, rdy, dts
    integer :: i, j, k, i_end, j_end, k_end
    real(kind=rkind) :: wdwn, rhs, cof
    i_end = min(ite, ide - 1)
    j_end = min(jte, jde - 1)
    k_end = kte - 1
    !$omp parallel do private(i, k, wdwn, rhs, cof)
    do j = jts, j_end
      do k = kts + 1, k_end
        do i = its, i_end
          wdwn = 0.5_rkind * (ww(i, k, j) + ww(i, k - 1, j)) * (ph(i, k, j) - ph(i, k - 1, j))
          cof = msfty(i, j) * dts * g / max(mu(i, j), 1.0e-6_rkind)
          rhs = rw_tend(i, k, j) - cof * (c2a(i, k, j) * t_2(i, k, j) - c2a(i, k - 1, j) * t_2(i, k - 1, j))
          if (abs(rhs) > 1.0e3_rkind) then
            rhs = sign(1.0e3_rkind, rhs)
          else if (rhs < -5.0_rkind .and. i == its) then
            rhs = rhs * 0.5_rkind
          end if
          w(i, k, j) = w(i, k, j) + dts * (rhs - wdwn) &
                       - 0.25_rkind * rdx * (u(i + 1, k, j) - u(i, k, j)) &
                       - 0.25_rkind * rdy * (v(i, k, j + 1) - v(i, k, j))
        end do
      end do
    end do
    !$omp end parallel do
    ! top and bottom boundary
    !$omp parallel do private(i)
    do j = jts, j_end
      do i = its, i_end
        w(i, kts, j) = 0.0_rkind
        w(i, kte, j) = w(i, k_end, j) * 0.5_rkind
      end do
    end do
  end subroutine advance_w

  subroutine tile_driver(w, rw_tend, ww, u, v, mu, c2a, t_2, ph, msfty, num_tiles, &
                         ids, ide, jds, jde, kds, kde, ims, ime, jms, jme, kms, kme, &
                         i_start, i_end, j_start, j_end, kts, kte)
    integer, intent(in) :: ids, ide, jds, jde, kds, kde, ims, ime, jms, jme, kms, kme, kts, kte
    integer, intent(in) :: num_tiles
    integer, intent(in) :: i_start(num_tiles), i_end(num_tiles), j_start(num_tiles), j_end(num_tiles)
    real(kind=rkind), dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: w
    real(kind=rkind), dimension(ims:ime, kms:kme, jms:jme), intent(in) :: rw_tend, ww, u, v, c2a, t_2, ph
    real(kind=rkind), dimension(ims:ime, jms:jme), intent(in) :: mu, msfty
    integer :: ij
    do ij = 1, num_tiles
      call advance_w(w, rw_tend, ww, u, v, mu, c2a, t_2, ph, msfty, 0.01_rkind, 0.012_rkind, 2.0_rkind, &
                     ids, ide, jds, jde, kds, kde, ims, ime, jms, jme, kms, kme, &
                     i_start(ij), i_end(ij), j_start(ij), j_end(ij), kts, kte)
    end do
  end subroutine tile_driver
end module module_small_step

program wrfish
  use module_small_step
  implicit none
  integer, parameter :: ids = 1, ide = 31, jds = 1, jde = 27, kds = 1, kde = 12
  integer, parameter :: ims = -3, ime = 35, jms = -3, jme = 31, kms = 1, kme = 12
  real(kind=rkind), dimension(ims:ime, kms:kme, jms:jme) :: w, rw_tend, ww, u, v, c2a, t_2, ph
  real(kind=rkind), dimension(ims:ime, jms:jme) :: mu, msfty
  integer :: i_start(4), i_end(4), j_start(4), j_end(4)
  integer :: i, j, k
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        w(i, k, j) = 0.01_rkind * sin(0.1_rkind * i + 0.2_rkind * k) * cos(0.05_rkind * j)
        rw_tend(i, k, j) = 1.0e-3_rkind * (i - j) + 2.0e3_rkind * merge(1, 0, mod(i * j + k, 17) == 0)
        ww(i, k, j) = 0.2_rkind * cos(0.3_rkind * i * k)
        u(i, k, j) = 5.0_rkind + 0.1_rkind * j
        v(i, k, j) = -3.0_rkind + 0.05_rkind * i * k
        c2a(i, k, j) = 300.0_rkind + k
        t_2(i, k, j) = 0.01_rkind * (k - 6) ** 2
        ph(i, k, j) = g * 100.0_rkind * k
      end do
    end do
    do i = ims, ime
      mu(i, j) = 1000.0_rkind - i - j
      msfty(i, j) = 1.0_rkind + 1.0e-3_rkind * j
    end do
  end do
  i_start = [1, 16, 1, 16]; i_end = [15, 31, 15, 31]
  j_start = [1, 1, 14, 14]; j_end = [13, 13, 27, 27]
  call tile_driver(w, rw_tend, ww, u, v, mu, c2a, t_2, ph, msfty, 4, &
                   ids, ide, jds, jde, kds, kde, ims, ime, jms, jme, kms, kme, &
                   i_start, i_end, j_start, j_end, kds, kde)
  write(*, '(3ES24.16)') sum(w), w(5, 5, 5), w(30, 11, 26)
  write(*, '(3ES24.16)') w(1, 1, 1), w(15, 12, 13), sum(abs(w(:, kde, :)))
end program wrfish
