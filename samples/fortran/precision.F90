! translate-test: cppflags=-DSP translate=-DSP
! Preprocessed Fortran (.F90): the translator reads the file as gfortran -cpp does, with the
! same -D flags, so the region is translated for the configuration built.  Here -DSP makes
! wp = 4 and the kernel works in float; without -DSP it works in double.
!
!   translate precision.F90 -DSP -o out
!   gfortran -cpp -DSP out/precision.F90 precision.host.o translate_rt.o -lOpenCL
!
! The rewritten source keeps every preprocessor line; compile it with the same -D flags.
program precision
  implicit none
#ifdef SP
  integer, parameter :: wp = 4
#else
  integer, parameter :: wp = 8
#endif
#ifndef DAMPING
#define DAMPING 0.25_wp
#endif
#define SQR(x) ((x)*(x))
  integer, parameter :: n = 4000
  real(wp) :: x(n), e(n)
  integer :: i
  do i = 1, n
     x(i) = sin(0.001_wp*i)
  end do
  !$translate kernel energy
  do i = 1, n
     e(i) = 0.5_wp*SQR(x(i)) + DAMPING*x(i)
  end do
  !$translate end kernel
  print '(a, i2)', 'real kind: ', wp
  print '(3es20.10)', e(1), e(n/2), e(n)
end program precision
