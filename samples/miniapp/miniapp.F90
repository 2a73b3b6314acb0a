! translate-test: rtol=1e-12
! miniapp: a small 2-D hydrodynamics-like application, ported to the GPU by adding pragmas only.
!
!   ./miniapp [CELLS [STEPS]]      (default 96 cells per side, 10 steps; bench: ./miniapp 960 20)
!
! Every loop nest that OpenMP runs in parallel (the !$omp parallel do lines, which gfortran
! -fopenmp compiles) is also a translate region (the !$translate lines, which translate turns
! into OpenCL kernels); nothing else of the source was changed to port it.  The state lives in
! a derived type with allocatable components (the variable `chunk`), made present on the device
! by `enter data` right after allocation, so initialisation, halo updates and the time loop all
! run on the device without copies; `exit data` brings the results back.
!
! Shapes: a module of kinds chosen by the preprocessor (-DUSE_SINGLE), macros in statements,
! initialisation routines before the time loop, halo updates of ghost cells, an ideal-gas
! equation of state, a time-step control (a minimum over a 2-D nest and its location), an
! upwind advection with IF/ELSE scalar temporaries, a CSR sparse matrix-vector product whose
! inner bounds come from the row pointers, and a field summary of five floating-point sums.
! Only the summary consents to reassociation (set_options(reassociate=True)): its sums are
! equal to the original's within rounding; everything else is bit-identical.
module prec
  implicit none
#ifdef USE_SINGLE
  integer, parameter :: dp = selected_real_kind(6)
#else
  integer, parameter :: dp = selected_real_kind(15)
#endif
end module prec

#define GAMMA 1.4_dp
#define GM1 (GAMMA - 1.0_dp)
#define CELL(j, k) ((j) + ((k) - 1)*nx)

module state
  use prec
  implicit none
  type field_t
    real(dp), allocatable :: density0(:,:), density1(:,:), energy0(:,:), energy1(:,:)
    real(dp), allocatable :: pressure(:,:), soundspeed(:,:), xvel(:,:), yvel(:,:)
    real(dp), allocatable :: work(:,:)
    integer, allocatable :: rowptr(:), col(:)
    real(dp), allocatable :: val(:), tracer(:), flux(:)
  end type field_t
end module state

! Initial state: a dense, hot box in one corner; a velocity field linear in x and y.
subroutine init_state(nx, ny, dx, dy, chunk)
  use prec
  use state
  implicit none
  integer, intent(in) :: nx, ny
  real(dp), intent(in) :: dx, dy
  type(field_t), intent(inout) :: chunk
  real(dp) :: x, y, d, e
  integer :: j, k
  !$translate kernel init_state_k
  !$omp parallel do private(j, x, y, d, e)
  do k = 0, ny + 1
    do j = 0, nx + 1
      x = (j - 0.5_dp)*dx
      y = (k - 0.5_dp)*dy
      if (x < 0.3_dp .and. y < 0.4_dp) then
        d = 1.0_dp
        e = 2.5_dp
      else
        d = 0.2_dp
        e = 1.0_dp
      end if
      chunk%density0(j, k) = d
      chunk%energy0(j, k) = e
      chunk%xvel(j, k) = 0.3_dp*(1.0_dp - 2.0_dp*x)
      chunk%yvel(j, k) = 0.2_dp*(2.0_dp*y - 1.0_dp)
    end do
  end do
  !$translate end kernel
end subroutine init_state

subroutine init_tracer(n, tracer)
  use prec
  implicit none
  integer, intent(in) :: n
  real(dp), intent(out) :: tracer(n)
  integer :: i
  !$translate kernel init_tracer_k
  !$omp parallel do
  do i = 1, n
    tracer(i) = mod(i, 7)*0.125_dp
  end do
  !$translate end kernel
end subroutine init_tracer

! Reflective boundaries: the edge columns, then the edge rows (corners included), into the
! ghost cells.
subroutine update_halo(nx, ny, chunk)
  use prec
  use state
  implicit none
  integer, intent(in) :: nx, ny
  type(field_t), intent(inout) :: chunk
  integer :: j, k
  !$translate kernel halo_columns_k
  !$omp parallel do
  do k = 1, ny
    chunk%density0(0, k) = chunk%density0(1, k)
    chunk%density0(nx + 1, k) = chunk%density0(nx, k)
    chunk%energy0(0, k) = chunk%energy0(1, k)
    chunk%energy0(nx + 1, k) = chunk%energy0(nx, k)
  end do
  !$translate end kernel
  !$translate kernel halo_rows_k
  !$omp parallel do
  do j = 0, nx + 1
    chunk%density0(j, 0) = chunk%density0(j, 1)
    chunk%density0(j, ny + 1) = chunk%density0(j, ny)
    chunk%energy0(j, 0) = chunk%energy0(j, 1)
    chunk%energy0(j, ny + 1) = chunk%energy0(j, ny)
  end do
  !$translate end kernel
end subroutine update_halo

subroutine ideal_gas(nx, ny, chunk)
  use prec
  use state
  implicit none
  integer, intent(in) :: nx, ny
  type(field_t), intent(inout) :: chunk
  real(dp) :: p
  integer :: j, k
  !$translate kernel ideal_gas_k
  !$omp parallel do private(j, p)
  do k = 1, ny
    do j = 1, nx
      p = GM1*chunk%density0(j, k)*chunk%energy0(j, k)
      chunk%pressure(j, k) = p
      chunk%soundspeed(j, k) = sqrt(GAMMA*p/chunk%density0(j, k))
    end do
  end do
  !$translate end kernel
end subroutine ideal_gas

! The time-step control: the smallest stable step of all cells, and the first cell (in
! column-major order) that has it.
subroutine calc_dt(nx, ny, dx, chunk, dtmin, jmin, kmin)
  use prec
  use state
  implicit none
  integer, intent(in) :: nx, ny
  real(dp), intent(in) :: dx
  type(field_t), intent(inout) :: chunk
  real(dp), intent(out) :: dtmin
  integer, intent(out) :: jmin, kmin
  real(dp) :: dtc
  integer :: j, k, loc
  dtmin = huge(dtmin)
  !$translate kernel calc_dt_k
  !$omp parallel do private(j, dtc) reduction(min:dtmin)
  do k = 1, ny
    do j = 1, nx
      dtc = dx/(chunk%soundspeed(j, k) + abs(chunk%xvel(j, k)) + abs(chunk%yvel(j, k)))
      chunk%work(j, k) = dtc
      dtmin = min(dtmin, dtc)
    end do
  end do
  !$translate end kernel
  loc = huge(loc)
  !$translate kernel dt_location_k
  !$omp parallel do private(j) reduction(min:loc)
  do k = 1, ny
    do j = 1, nx
      if (chunk%work(j, k) == dtmin) loc = min(loc, CELL(j, k))
    end do
  end do
  !$translate end kernel
  kmin = (loc - 1)/nx + 1
  jmin = loc - (kmin - 1)*nx
end subroutine calc_dt

! First-order upwind advection of density and energy, with a compression term: the upwind
! differences are scalar temporaries set on both paths of an IF/ELSE.
subroutine advect(nx, ny, rdt, chunk)
  use prec
  use state
  implicit none
  integer, intent(in) :: nx, ny
  real(dp), intent(in) :: rdt
  type(field_t), intent(inout) :: chunk
  real(dp) :: u, v, fxd, fxe, fyd, fye, div
  integer :: j, k
  !$translate kernel advect_k
  !$omp parallel do private(j, u, v, fxd, fxe, fyd, fye, div)
  do k = 1, ny
    do j = 1, nx
      u = chunk%xvel(j, k)
      v = chunk%yvel(j, k)
      if (u > 0.0_dp) then
        fxd = u*(chunk%density0(j, k) - chunk%density0(j - 1, k))
        fxe = u*(chunk%energy0(j, k) - chunk%energy0(j - 1, k))
      else
        fxd = u*(chunk%density0(j + 1, k) - chunk%density0(j, k))
        fxe = u*(chunk%energy0(j + 1, k) - chunk%energy0(j, k))
      end if
      if (v > 0.0_dp) then
        fyd = v*(chunk%density0(j, k) - chunk%density0(j, k - 1))
        fye = v*(chunk%energy0(j, k) - chunk%energy0(j, k - 1))
      else
        fyd = v*(chunk%density0(j, k + 1) - chunk%density0(j, k))
        fye = v*(chunk%energy0(j, k + 1) - chunk%energy0(j, k))
      end if
      div = 0.5_dp*(chunk%xvel(j + 1, k) - chunk%xvel(j - 1, k) &
                    + chunk%yvel(j, k + 1) - chunk%yvel(j, k - 1))
      chunk%density1(j, k) = chunk%density0(j, k) - rdt*(fxd + fyd)
      chunk%energy1(j, k) = chunk%energy0(j, k) - rdt*(fxe + fye) &
                            - rdt*GM1*chunk%energy0(j, k)*div
    end do
  end do
  !$translate end kernel
end subroutine advect

subroutine copy_back(nx, ny, chunk)
  use prec
  use state
  implicit none
  integer, intent(in) :: nx, ny
  type(field_t), intent(inout) :: chunk
  integer :: j, k
  !$translate kernel copy_back_k
  !$omp parallel do private(j)
  do k = 1, ny
    do j = 1, nx
      chunk%density0(j, k) = chunk%density1(j, k)
      chunk%energy0(j, k) = chunk%energy1(j, k)
    end do
  end do
  !$translate end kernel
end subroutine copy_back

! The 5-point diffusion operator of the tracer, a CSR matrix built on the host.
subroutine build_matrix(nx, ny, rowptr, col, val)
  use prec
  implicit none
  integer, intent(in) :: nx, ny
  integer, intent(out) :: rowptr(nx*ny + 1), col(5*nx*ny)
  real(dp), intent(out) :: val(5*nx*ny)
  integer :: j, k, nnz
  nnz = 0
  rowptr(1) = 1
  do k = 1, ny
    do j = 1, nx
      call entry(j, k - 1, 0.2_dp)
      call entry(j - 1, k, 0.2_dp)
      call entry(j, k, -0.8_dp)
      call entry(j + 1, k, 0.2_dp)
      call entry(j, k + 1, 0.2_dp)
      rowptr(CELL(j, k) + 1) = nnz + 1
    end do
  end do
  col(nnz + 1:) = 1
  val(nnz + 1:) = 0
contains
  subroutine entry(jj, kk, c)
    integer, intent(in) :: jj, kk
    real(dp), intent(in) :: c
    if (jj < 1 .or. jj > nx .or. kk < 1 .or. kk > ny) return
    nnz = nnz + 1
    col(nnz) = CELL(jj, kk)
    val(nnz) = c
  end subroutine entry
end subroutine build_matrix

subroutine spmv(n, nnzmax, rowptr, col, val, x, y)
  use prec
  implicit none
  integer, intent(in) :: n, nnzmax, rowptr(n + 1), col(nnzmax)
  real(dp), intent(in) :: val(nnzmax), x(n)
  real(dp), intent(out) :: y(n)
  real(dp) :: s
  integer :: i, jj
  !$translate kernel spmv_k
  !$omp parallel do private(s, jj)
  do i = 1, n
    s = 0.0_dp
    do jj = rowptr(i), rowptr(i + 1) - 1
      s = s + val(jj)*x(col(jj))
    end do
    y(i) = s
  end do
  !$translate end kernel
end subroutine spmv

subroutine update_tracer(n, tracer, flux, tmax)
  use prec
  implicit none
  integer, intent(in) :: n
  real(dp), intent(inout) :: tracer(n)
  real(dp), intent(in) :: flux(n)
  real(dp), intent(out) :: tmax
  integer :: i
  tmax = 0.0_dp
  !$translate kernel update_tracer_k
  !$omp parallel do reduction(max:tmax)
  do i = 1, n
    tracer(i) = tracer(i) + 0.1_dp*flux(i)
    tmax = max(tmax, abs(tracer(i)))
  end do
  !$translate end kernel
end subroutine update_tracer

! Five sums over the cells; in parallel they are added in another order, which the region
! allows (reassociate=True): the results then agree with the original within rounding.
subroutine field_summary(nx, ny, dx, dy, chunk, vol, mass, ie, ke, press)
  use prec
  use state
  implicit none
  integer, intent(in) :: nx, ny
  real(dp), intent(in) :: dx, dy
  type(field_t), intent(inout) :: chunk
  real(dp), intent(out) :: vol, mass, ie, ke, press
  real(dp) :: cv, cm
  integer :: j, k
  vol = 0.0_dp
  mass = 0.0_dp
  ie = 0.0_dp
  ke = 0.0_dp
  press = 0.0_dp
  !$translate kernel field_summary_k
  !$translate set_options(reassociate=True)
  !$omp parallel do private(j, cv, cm) reduction(+:vol, mass, ie, ke, press)
  do k = 1, ny
    do j = 1, nx
      cv = dx*dy
      cm = chunk%density0(j, k)*cv
      vol = vol + cv
      mass = mass + cm
      ie = ie + cm*chunk%energy0(j, k)
      ke = ke + cm*0.5_dp*(chunk%xvel(j, k)**2 + chunk%yvel(j, k)**2)
      press = press + cv*chunk%pressure(j, k)
    end do
  end do
  !$translate end kernel
end subroutine field_summary

program miniapp
  use prec
  use state
  implicit none
  type(field_t) :: chunk
  integer :: nx, ny, n, nsteps, step, jmin, kmin
  real(dp) :: dx, dy, dtmin, dt, tmax, vol, mass, ie, ke, press
  character(len=32) :: arg

  nx = 96
  nsteps = 10
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) nx
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) nsteps
  end if
  ny = nx
  n = nx*ny
  dx = 1.0_dp/nx
  dy = 1.0_dp/ny

  allocate (chunk%density0(0:nx + 1, 0:ny + 1), chunk%density1(0:nx + 1, 0:ny + 1))
  allocate (chunk%energy0(0:nx + 1, 0:ny + 1), chunk%energy1(0:nx + 1, 0:ny + 1))
  allocate (chunk%pressure(0:nx + 1, 0:ny + 1), chunk%soundspeed(0:nx + 1, 0:ny + 1))
  allocate (chunk%xvel(0:nx + 1, 0:ny + 1), chunk%yvel(0:nx + 1, 0:ny + 1))
  allocate (chunk%work(nx, ny))
  allocate (chunk%rowptr(n + 1), chunk%col(5*n), chunk%val(5*n))
  allocate (chunk%tracer(n), chunk%flux(n))
  call build_matrix(nx, ny, chunk%rowptr, chunk%col, chunk%val)
  !$translate enter data copyin(chunk%rowptr, chunk%col, chunk%val)
  !$translate enter data create(chunk%density0, chunk%density1, chunk%energy0, chunk%energy1)
  !$translate enter data create(chunk%pressure, chunk%soundspeed, chunk%xvel, chunk%yvel)
  !$translate enter data create(chunk%work, chunk%tracer, chunk%flux)

  call init_state(nx, ny, dx, dy, chunk)
  call init_tracer(n, chunk%tracer)
  call update_halo(nx, ny, chunk)

  do step = 1, nsteps
    call ideal_gas(nx, ny, chunk)
    call calc_dt(nx, ny, dx, chunk, dtmin, jmin, kmin)
    dt = 0.5_dp*dtmin
    call advect(nx, ny, dt/dx, chunk)
    call copy_back(nx, ny, chunk)
    call update_halo(nx, ny, chunk)
    call spmv(n, 5*n, chunk%rowptr, chunk%col, chunk%val, chunk%tracer, chunk%flux)
    call update_tracer(n, chunk%tracer, chunk%flux, tmax)
    call field_summary(nx, ny, dx, dy, chunk, vol, mass, ie, ke, press)
    write (*, '(a, i5, es24.16, 2i7, es24.16)') 'step', step, dt, jmin, kmin, tmax
    write (*, '(a, 5es24.16)') 'summary', vol, mass, ie, ke, press
  end do

  !$translate exit data copyout(chunk%density0, chunk%energy0, chunk%pressure, chunk%tracer)
  !$translate exit data delete(chunk%density1, chunk%energy1, chunk%soundspeed, chunk%xvel)
  !$translate exit data delete(chunk%yvel, chunk%work, chunk%flux, chunk%rowptr, chunk%col)
  !$translate exit data delete(chunk%val)
  write (*, '(a, 4es24.16)') 'final', sum(chunk%density0), sum(chunk%energy0), &
    sum(chunk%pressure(1:nx, 1:ny)), sum(chunk%tracer)
end program miniapp
