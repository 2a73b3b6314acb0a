! translate-test: translate=--directives=openmp rtol=1e-13
MODULE data_kinds
  IMPLICIT NONE
  INTEGER, PARAMETER :: dp = SELECTED_REAL_KIND(15, 300)
  REAL(KIND=dp), PARAMETER :: g_small = 1.0e-16_dp, g_big = 1.0e+21_dp
  REAL(KIND=dp), PARAMETER :: dtc_safe = 0.7_dp, dtu_safe = 0.5_dp
END MODULE data_kinds

MODULE eos_mod
  USE data_kinds
  IMPLICIT NONE
CONTAINS
  SUBROUTINE ideal_gas_kernel(x_min, x_max, y_min, y_max, density, energy, pressure, soundspeed)
    INTEGER, INTENT(IN) :: x_min, x_max, y_min, y_max
    REAL(KIND=dp), DIMENSION(x_min-2:x_max+2, y_min-2:y_max+2), INTENT(IN) :: density, energy
    REAL(KIND=dp), DIMENSION(x_min-2:x_max+2, y_min-2:y_max+2), INTENT(INOUT) :: pressure, soundspeed
    INTEGER :: j, k
    REAL(KIND=dp) :: sound_speed_squared, v, pressurebyenergy, pressurebyvolume
!$OMP PARALLEL
!$OMP DO PRIVATE(v, pressurebyenergy, pressurebyvolume, sound_speed_squared)
    DO k = y_min, y_max
      DO j = x_min, x_max
        v = 1.0_dp / density(j, k)
        pressure(j, k) = (1.4_dp - 1.0_dp) * density(j, k) * energy(j, k)
        pressurebyenergy = (1.4_dp - 1.0_dp) * density(j, k)
        pressurebyvolume = -density(j, k) * pressure(j, k)
        sound_speed_squared = v * v * (pressure(j, k) * pressurebyenergy - pressurebyvolume)
        soundspeed(j, k) = SQRT(sound_speed_squared)
      ENDDO
    ENDDO
!$OMP END DO
!$OMP END PARALLEL
  END SUBROUTINE ideal_gas_kernel

  SUBROUTINE calc_dt_kernel(x_min, x_max, y_min, y_max, celldx, celldy, density, soundspeed, &
                            xvel, yvel, dt_min_val, jldt, kldt, small)
    INTEGER, INTENT(IN) :: x_min, x_max, y_min, y_max
    REAL(KIND=dp), DIMENSION(x_min-2:x_max+2), INTENT(IN) :: celldx
    REAL(KIND=dp), DIMENSION(y_min-2:y_max+2), INTENT(IN) :: celldy
    REAL(KIND=dp), DIMENSION(x_min-2:x_max+2, y_min-2:y_max+2), INTENT(IN) :: density, soundspeed
    REAL(KIND=dp), DIMENSION(x_min-2:x_max+3, y_min-2:y_max+3), INTENT(IN) :: xvel, yvel
    REAL(KIND=dp), INTENT(OUT) :: dt_min_val
    INTEGER, INTENT(OUT) :: jldt, kldt, small
    REAL(KIND=dp), DIMENSION(x_min-2:x_max+2, y_min-2:y_max+2) :: dt_min
    INTEGER :: j, k
    REAL(KIND=dp) :: dsx, dsy, cc, dtct, div, dv1, dv2, dtut, dtvt, dtdivt, jk_control
    small = 0
    dt_min_val = g_big
    jk_control = 1.1_dp
!$OMP PARALLEL
!$OMP DO PRIVATE(dsx, dsy, cc, dv1, dv2, div, dtct, dtut, dtvt, dtdivt)
    DO k = y_min, y_max
      DO j = x_min, x_max
        dsx = celldx(j)
        dsy = celldy(k)
        cc = soundspeed(j, k) * soundspeed(j, k)
        cc = cc + 2.0_dp * 0.1_dp / density(j, k)
        cc = MAX(SQRT(cc), g_small)
        dtct = dtc_safe * MIN(dsx, dsy) / cc
        div = 0.0
        dv1 = (xvel(j, k) + xvel(j, k+1)) * 0.5_dp
        dv2 = (xvel(j+1, k) + xvel(j+1, k+1)) * 0.5_dp
        div = div + dv2 - dv1
        dtut = dtu_safe * 2.0_dp * dsx / MAX(ABS(dv1), ABS(dv2), g_small * dsx)
        dv1 = (yvel(j, k) + yvel(j+1, k)) * 0.5_dp
        dv2 = (yvel(j, k+1) + yvel(j+1, k+1)) * 0.5_dp
        div = div + dv2 - dv1
        dtvt = dtu_safe * 2.0_dp * dsy / MAX(ABS(dv1), ABS(dv2), g_small * dsy)
        div = div / (2.0_dp * dsx * dsy)
        IF (div .LT. -g_small) THEN
          dtdivt = 0.7_dp * (-1.0_dp / div)
        ELSE
          dtdivt = g_big
        ENDIF
        dt_min(j, k) = MIN(dtct, dtut, dtvt, dtdivt)
      ENDDO
    ENDDO
!$OMP END DO
!$OMP DO REDUCTION(MIN : dt_min_val)
    DO k = y_min, y_max
      DO j = x_min, x_max
        IF (dt_min(j, k) .LT. dt_min_val) dt_min_val = dt_min(j, k)
      ENDDO
    ENDDO
!$OMP END DO
!$OMP END PARALLEL
    jldt = INT(MOD(jk_control, 1.0_dp) * 10)
    kldt = 1 + INT(jk_control)
    IF (dt_min_val .LT. 1e-12_dp) small = 1
  END SUBROUTINE calc_dt_kernel

  SUBROUTINE field_summary_kernel(x_min, x_max, y_min, y_max, volume, density, energy, pressure, &
                                  xvel, yvel, vol, mass, ie, ke, press)
    INTEGER, INTENT(IN) :: x_min, x_max, y_min, y_max
    REAL(KIND=dp), DIMENSION(x_min-2:x_max+2, y_min-2:y_max+2), INTENT(IN) :: volume, density, energy, pressure
    REAL(KIND=dp), DIMENSION(x_min-2:x_max+3, y_min-2:y_max+3), INTENT(IN) :: xvel, yvel
    REAL(KIND=dp), INTENT(OUT) :: vol, mass, ie, ke, press
    INTEGER :: j, k, jv, kv
    REAL(KIND=dp) :: vsqrd, cell_vol, cell_mass
    vol = 0.0; mass = 0.0; ie = 0.0; ke = 0.0; press = 0.0
!$OMP PARALLEL
!$OMP DO PRIVATE(vsqrd, cell_vol, cell_mass, jv, kv) REDUCTION(+ : vol, mass, press, ie, ke)
    DO k = y_min, y_max
      DO j = x_min, x_max
        vsqrd = 0.0
        DO kv = k, k + 1
          DO jv = j, j + 1
            vsqrd = vsqrd + 0.25_dp * (xvel(jv, kv)**2 + yvel(jv, kv)**2)
          ENDDO
        ENDDO
        cell_vol = volume(j, k)
        cell_mass = cell_vol * density(j, k)
        vol = vol + cell_vol
        mass = mass + cell_mass
        ie = ie + cell_mass * energy(j, k)
        ke = ke + cell_mass * 0.5_dp * vsqrd
        press = press + cell_vol * pressure(j, k)
      ENDDO
    ENDDO
!$OMP END DO
!$OMP END PARALLEL
  END SUBROUTINE field_summary_kernel
END MODULE eos_mod

PROGRAM clover_like
  USE data_kinds
  USE eos_mod
  IMPLICIT NONE
  INTEGER, PARAMETER :: x_min = 1, x_max = 37, y_min = 1, y_max = 23
  REAL(KIND=dp), ALLOCATABLE :: density(:, :), energy(:, :), pressure(:, :), soundspeed(:, :)
  REAL(KIND=dp), ALLOCATABLE :: xvel(:, :), yvel(:, :), volume(:, :), celldx(:), celldy(:)
  REAL(KIND=dp) :: dtmin, vol, mass, ie, ke, press
  INTEGER :: j, k, jl, kl, sm
  ALLOCATE(density(x_min-2:x_max+2, y_min-2:y_max+2), energy(x_min-2:x_max+2, y_min-2:y_max+2))
  ALLOCATE(pressure(x_min-2:x_max+2, y_min-2:y_max+2), soundspeed(x_min-2:x_max+2, y_min-2:y_max+2))
  ALLOCATE(volume(x_min-2:x_max+2, y_min-2:y_max+2))
  ALLOCATE(xvel(x_min-2:x_max+3, y_min-2:y_max+3), yvel(x_min-2:x_max+3, y_min-2:y_max+3))
  ALLOCATE(celldx(x_min-2:x_max+2), celldy(y_min-2:y_max+2))
  DO k = y_min - 2, y_max + 2
    DO j = x_min - 2, x_max + 2
      density(j, k) = 1.0_dp + 0.3_dp * SIN(0.1_dp * j) * COS(0.07_dp * k)
      energy(j, k) = 2.5_dp + 0.01_dp * MOD(j * k, 13)
      volume(j, k) = 0.01_dp * (1.0_dp + 0.001_dp * j)
    ENDDO
  ENDDO
  DO k = y_min - 2, y_max + 3
    DO j = x_min - 2, x_max + 3
      xvel(j, k) = 0.1_dp * SIN(0.3_dp * j + 0.2_dp * k)
      yvel(j, k) = -0.05_dp * COS(0.11_dp * j * k)
    ENDDO
  ENDDO
  celldx = 0.1_dp
  celldy = 0.13_dp
  pressure = 0.0_dp
  soundspeed = 0.0_dp
  CALL ideal_gas_kernel(x_min, x_max, y_min, y_max, density, energy, pressure, soundspeed)
  CALL calc_dt_kernel(x_min, x_max, y_min, y_max, celldx, celldy, density, soundspeed, xvel, yvel, &
                      dtmin, jl, kl, sm)
  CALL field_summary_kernel(x_min, x_max, y_min, y_max, volume, density, energy, pressure, &
                            xvel, yvel, vol, mass, ie, ke, press)
  WRITE(*, '(4ES24.16)') pressure(5, 7), soundspeed(x_max, y_max), pressure(x_min, y_min), &
       soundspeed(0, 0)
  WRITE(*, '(ES24.16, 3I6)') dtmin, jl, kl, sm
  WRITE(*, '(5ES24.16)') vol, mass, ie, ke, press
  WRITE(*, '(ES24.16)') SUM(pressure), SUM(soundspeed)
END PROGRAM clover_like
