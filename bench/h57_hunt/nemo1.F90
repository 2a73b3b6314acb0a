! translate-test: translate=--directives=openmp rtol=1e-13
#define DO_3D(B, T, L, R) DO jk = 1, jpk; DO jj = 1+B, jpj-T; DO ji = 1+L, jpi-R
#define END_3D END DO; END DO; END DO
MODULE par_oce
   IMPLICIT NONE
   INTEGER, PARAMETER :: wp = SELECTED_REAL_KIND(12, 307)
   INTEGER, PARAMETER :: jpi = 23, jpj = 19, jpk = 7
END MODULE par_oce

MODULE dom_oce
   USE par_oce
   IMPLICIT NONE
   REAL(wp), ALLOCATABLE :: tmask(:,:,:), e1t(:,:), e2t(:,:), e3t(:,:,:)
   REAL(wp), ALLOCATABLE :: ts(:,:,:), un(:,:,:), vn(:,:,:), zwx(:,:,:), zwy(:,:,:), ta(:,:,:)
END MODULE dom_oce

MODULE traadv
   USE par_oce
   USE dom_oce
   IMPLICIT NONE
CONTAINS
   SUBROUTINE tra_adv_cen( kt )
      INTEGER, INTENT(in) :: kt
      INTEGER  :: ji, jj, jk
      REAL(wp) :: zbtr, zhw, zmax
      !
!$OMP PARALLEL DO PRIVATE(ji, jj)
      DO jk = 1, jpk - 1
         DO jj = 1, jpj - 1
            DO ji = 1, jpi - 1
               zwx(ji,jj,jk) = 0.5_wp * un(ji,jj,jk) * ( ts(ji,jj,jk) + ts(ji+1,jj,jk) )
               zwy(ji,jj,jk) = 0.5_wp * vn(ji,jj,jk) * ( ts(ji,jj,jk) + ts(ji,jj+1,jk) )
            END DO
         END DO
      END DO
!$OMP END PARALLEL DO
!$OMP PARALLEL DO PRIVATE(ji, jj, zbtr)
      DO jk = 1, jpk - 1
         DO jj = 2, jpj - 1
            DO ji = 2, jpi - 1
               zbtr = 1._wp / ( e1t(ji,jj) * e2t(ji,jj) * e3t(ji,jj,jk) )
               ta(ji,jj,jk) = ta(ji,jj,jk) - zbtr * ( zwx(ji,jj,jk) - zwx(ji-1,jj,jk)   &
                  &                                 + zwy(ji,jj,jk) - zwy(ji,jj-1,jk) ) &
                  &                           * tmask(ji,jj,jk)
            END DO
         END DO
      END DO
!$OMP END PARALLEL DO
#if defined key_diag
      zmax = 0._wp
      DO_3D( 1, 1, 1, 1 )
         zmax = MAX( zmax, ABS( ta(ji,jj,jk) ) )
      END_3D
      PRINT *, 'max', zmax
#endif
      IF (kt < 0) PRINT *, zhw
   END SUBROUTINE tra_adv_cen

   SUBROUTINE zps_hde( )
      INTEGER  :: ji, jj, jk, iku
      REAL(wp) :: ze3wu, zmaxu, zmaxv
!$OMP PARALLEL DO PRIVATE(ji, iku, ze3wu, zmaxu) COLLAPSE(2)
      DO jj = 1, jpj - 1
         DO ji = 1, jpi - 1
            iku = MAX(1, NINT(SUM(tmask(ji,jj,:))))
            ze3wu = e3t(ji+1,jj,iku) - e3t(ji,jj,iku)
            zmaxu = ze3wu / e3t(ji,jj,iku)
            IF( ze3wu >= 0._wp ) THEN
               zwx(ji,jj,1) = tmask(ji,jj,1) * ( ts(ji+1,jj,iku) - ts(ji,jj,iku) )
            ELSE
               zwx(ji,jj,1) = tmask(ji,jj,1) * ( ts(ji+1,jj,iku) + zmaxu * ( ts(ji,jj,iku) - ts(ji+1,jj,iku) ) )
            ENDIF
         END DO
      END DO
!$OMP END PARALLEL DO
   END SUBROUTINE zps_hde
END MODULE traadv

PROGRAM nemoish
   USE par_oce
   USE dom_oce
   USE traadv
   IMPLICIT NONE
   INTEGER :: ji, jj, jk
   ALLOCATE( tmask(jpi,jpj,jpk), e1t(jpi,jpj), e2t(jpi,jpj), e3t(jpi,jpj,jpk) )
   ALLOCATE( ts(jpi,jpj,jpk), un(jpi,jpj,jpk), vn(jpi,jpj,jpk), zwx(jpi,jpj,jpk), zwy(jpi,jpj,jpk), ta(jpi,jpj,jpk) )
   DO jk = 1, jpk
      DO jj = 1, jpj
         DO ji = 1, jpi
            tmask(ji,jj,jk) = MERGE(1._wp, 0._wp, jk <= 3 + MOD(ji + jj, 4))
            e3t(ji,jj,jk) = 10._wp + 0.5_wp * jk + 0.01_wp * ji
            ts(ji,jj,jk) = 15._wp - 0.3_wp * jk + 0.02_wp * SIN(0.4_wp * ji) * jj
            un(ji,jj,jk) = 0.1_wp * COS(0.2_wp * jj + jk)
            vn(ji,jj,jk) = -0.05_wp * SIN(0.3_wp * ji)
         END DO
      END DO
   END DO
   e1t = 1000._wp; e2t = 1200._wp
   zwx = 0._wp; zwy = 0._wp; ta = 0._wp
   CALL tra_adv_cen( 1 )
   WRITE(*, '(3ES24.16)') SUM(ta), SUM(zwx), SUM(zwy)
   WRITE(*, '(3ES24.16)') ta(5,6,2), zwx(7,8,3), ta(jpi-1,jpj-1,jpk-1)
   CALL zps_hde( )
   WRITE(*, '(2ES24.16)') SUM(zwx(:,:,1)), zwx(3,4,1)
END PROGRAM nemoish
