! Exits after a delay, with STOP or after one region call, while the runtime's early start may
! still be opening the device (h44, issue 29).  Arguments: microseconds to wait, the exit
! status (STOP code), and "stop" or "region".
program early_exit_f
  implicit none
  integer :: status, i
  integer(8) :: us, t0, t1, rate
  character(len=32) :: arg, how
  real(8) :: a(256), s
  call get_command_argument(1, arg)
  read (arg, *) us
  call get_command_argument(2, arg)
  read (arg, *) status
  call get_command_argument(3, how)
  write (*, '(a)') 'start'
  call system_clock(t0, rate)
  do
    call system_clock(t1)
    if ((t1 - t0)*1000000_8 >= us*rate) exit
  end do
  if (trim(how) == 'region') then
    !$translate kernel fill_f
    do i = 1, 256
      a(i) = 0.5d0*(i - 1)
    end do
    !$translate end kernel
    s = sum(a)
    write (*, '(a, f8.1)') 'total', s
  end if
  if (status == 3) stop 3
  if (status == 4) stop 4
  if (status == 5) stop 5
  stop 6
end program early_exit_f
