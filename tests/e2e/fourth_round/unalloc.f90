! An allocatable array of derived type, not allocated, whose components a region packs: the
! call stops with a message naming the region (before: lbound of an unallocated array).
module m
  implicit none
  type sp_t
    real(8) :: v(8)
  end type
contains
  subroutine push(sp, nsp)
    type(sp_t), allocatable, intent(inout) :: sp(:)
    integer, intent(in) :: nsp
    integer :: i, k
    !$translate kernel
    do k = 1, nsp
      do i = 1, 8
        sp(k)%v(i) = sp(k)%v(i) + 1.0d0
      end do
    end do
    !$translate end kernel
  end subroutine
end module
program p
  use m
  type(sp_t), allocatable :: sp(:)
  call push(sp, 0)
  print *, "no"
end program
