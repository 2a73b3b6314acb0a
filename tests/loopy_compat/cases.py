"""loopy 2025.2's Fortran tests (``test/test_fortran.py``) and ``examples/fortran`` files as
programs with ``!$translate`` pragmas: the subroutine as loopy's test writes it, its transform
calls as pragmas in the region, and a main program that fills the inputs and prints the results.

Each entry is ``name -> program text``; `test_pragma_cases` builds every program as written and
as translated and compares what both print.
"""

from __future__ import annotations

#: test_assign_double_precision_scalar: a double constant stays double.
ASSIGN_DOUBLE = """\
subroutine assign_scalar(a)
  real*8 a(1)
  !$translate kernel assign_k
  a(1) = 1.1d0
  !$translate end kernel
end

program main
  real*8 a(1)
  a(1) = 0
  call assign_scalar(a)
  print '(es26.17e3)', a(1)
end program
"""

#: test_assign_double_precision_scalar_as_rational.
ASSIGN_RATIONAL = """\
subroutine assign_scalar(a)
  real*8 a(1)
  !$translate kernel assign_k
  a(1) = 11
  a(1) = a(1) / 10
  !$translate end kernel
end

program main
  real*8 a(1)
  a(1) = 0
  call assign_scalar(a)
  print '(es26.17e3)', a(1)
end program
"""

#: test_assign_single_precision_scalar: a default-real constant is rounded to single first.
ASSIGN_SINGLE = """\
subroutine assign_scalar(a)
  real*8 a(1)
  !$translate kernel assign_k
  a(1) = 1.1
  !$translate end kernel
end

program main
  real*8 a(1)
  a(1) = 0
  call assign_scalar(a)
  print '(es26.17e3)', a(1)
end program
"""

FILL_MAIN = """
program main
  integer, parameter :: n = 300
  real*8 out(n)
  out = -1
  call fill(out, 5d0, n)
  print '(4(1x, es26.17e3))', out(1), out(129), out(n), sum(out)
end program
"""

#: test_fill: split_iname with a split amount of 128.
FILL = """\
subroutine fill(out, a, n)
  implicit none
  real*8 a, out(n)
  integer n, i
  !$translate kernel fill_k
  !$translate split_iname("i", 128, outer_tag="g.0", inner_tag="l.0")
  do i = 1, n
    out(i) = a
  end do
  !$translate end kernel
end
""" + FILL_MAIN

#: test_fill_const: no transform (mapped automatically).
FILL_CONST = """\
subroutine fill(out, a, n)
  implicit none
  real*8 a, out(n)
  integer n, i
  !$translate kernel fill_k
  do i = 1, n
    out(i) = 3.45
  end do
  !$translate end kernel
end
""" + FILL_MAIN

TWO_OUT_MAIN = """
program main
  integer, parameter :: n = 37
  real*8 out(n), out2(n), inp(n)
  integer i
  do i = 1, n
    inp(i) = 0.25d0 * i - 3
  end do
  out = 0
  out2 = 0
  call fill(out, out2, inp, n)
  do i = 1, n, 4
    print '(2(1x, es26.17e3))', out(i), out2(i)
  end do
  print '(2(1x, es26.17e3))', sum(out), sum(out2)
end program
"""

#: test_asterisk_in_shape: an assumed-size dummy.
ASTERISK = """\
subroutine fill(out, out2, inp, n)
  implicit none
  real*8 a, out(n), out2(n), inp(*)
  integer n, i
  !$translate kernel fill_k
  do i = 1, n
    a = inp(n)
    out(i) = 5*a
    out2(i) = 6*a
  end do
  !$translate end kernel
end
""" + TWO_OUT_MAIN

#: test_assignment_to_subst.
TO_SUBST = """\
subroutine fill(out, out2, inp, n)
  implicit none
  real*8 a, out(n), out2(n), inp(n)
  integer n, i
  !$translate kernel fill_k
  !$translate assignment_to_subst("a", "i")
  do i = 1, n
    a = inp(i)
    out(i) = 5*a
    out2(i) = 6*a
  end do
  !$translate end kernel
end
""" + TWO_OUT_MAIN

#: test_assignment_to_subst_two_defs.
TO_SUBST_TWO_DEFS = """\
subroutine fill(out, out2, inp, n)
  implicit none
  real*8 a, out(n), out2(n), inp(n)
  integer n, i
  !$translate kernel fill_k
  !$translate assignment_to_subst("a")
  do i = 1, n
    a = inp(i)
    out(i) = 5*a
    a = 3*inp(n)
    out2(i) = 6*a
  end do
  !$translate end kernel
end
""" + TWO_OUT_MAIN

#: test_assignment_to_subst_indices: a procedure-local array becomes a substitution.
TO_SUBST_INDICES = """\
subroutine fill(out, out2, inp, n)
  implicit none
  real*8 a(n), out(n), out2(n), inp(n)
  integer n, i
  !$translate kernel fill_k
  !$translate fix_parameters(n=5)
  !$translate assignment_to_subst("a")
  do i = 1, n
    a(i) = 6*inp(i)
  enddo
  do i = 1, n
    out(i) = 5*a(i)
  end do
  !$translate end kernel
end

program main
  integer, parameter :: n = 5
  real*8 out(n), out2(n), inp(n)
  integer i
  do i = 1, n
    inp(i) = 0.5d0 * i + 1
  end do
  out = 0
  call fill(out, out2, inp, n)
  print '(5(1x, es26.17e3))', out
end program
"""

#: test_if: a branch around an inner loop.
IF_BRANCH = """\
subroutine fill(out, out2, inp, n)
  implicit none
  real*8 a, b, out(n), out2(n), inp(n)
  integer n, i, j
  !$translate kernel fill_k
  !$translate assignment_to_subst("a")
  do i = 1, n
    a = inp(i)
    if (a.ge.3) then
      b = 2*a
      do j = 1,3
        b = 3 * b
      end do
      out(i) = 5*b
    else
      out(i) = 4*a
    endif
  end do
  !$translate end kernel
end
""" + TWO_OUT_MAIN

#: test_tagged: statements tagged by a block (find_instructions counts them: test_api.py).
TAGGED = """\
subroutine rot_norm(out, alpha, out2, inp, inp2, n)
  implicit none
  real*8 a, b, r, out(n), out2(n), inp(n), inp2(n)
  real*8 alpha
  integer n, i
  !$translate kernel rot_k
  !$translate split_iname("i", 16, outer_tag="g.0", inner_tag="l.0")
  do i = 1, n
    !$translate block tags(input)
    a = cos(alpha)*inp(i) + sin(alpha)*inp2(i)
    b = -sin(alpha)*inp(i) + cos(alpha)*inp2(i)
    !$translate end block
    r = sqrt(a**2 + b**2)
    a = a/r
    b = b/r
    out(i) = a
    out2(i) = b
  end do
  !$translate end kernel
end

program main
  integer, parameter :: n = 45
  real*8 out(n), out2(n), inp(n), inp2(n)
  integer i
  do i = 1, n
    inp(i) = 1 + 0.1d0 * i
    inp2(i) = 2 - 0.03d0 * i
  end do
  call rot_norm(out, 0.3d0, out2, inp, inp2, n)
  print '(2(1x, es22.13e3))', (out(i), out2(i), i = 1, n, 7)
end program
"""

DGEMM_MAIN = """
program main
  integer, parameter :: m = 128, n = 128, ell = 128
  real*8 a(m, ell), b(ell, n), c(m, n)
  integer i, j
  do j = 1, ell
    do i = 1, m
      a(i, j) = mod(i * 7 + j * 3, 11) - 5
    end do
  end do
  do j = 1, n
    do i = 1, ell
      b(i, j) = mod(i * 5 + j * 2, 13) - 6
    end do
  end do
  c = 1
  call dgemm(m, n, ell, a, b, c)
  print '(4(1x, f16.3))', c(1, 1), c(m, n), c(17, 93), sum(c)
end program
"""

MATMUL_TRANSFORMS = """\
  !$translate split_iname("i", 16, outer_tag="g.0", inner_tag="l.1")
  !$translate split_iname("j", 8, outer_tag="g.1", inner_tag="l.0")
  !$translate split_iname("k", 32)
  !$translate assume("n mod 32 = 0")
  !$translate assume("m mod 32 = 0")
  !$translate assume("ell mod 16 = 0")
  !$translate extract_subst("a_acc", "a[i1,i2]", parameters="i1, i2")
  !$translate extract_subst("b_acc", "b[i1,i2]", parameters="i1, i2")
  !$translate precompute("a_acc", "k_inner,i_inner", &
  !$translate&  precompute_outer_inames="i_outer, j_outer, k_outer", default_tag="l.auto")
  !$translate precompute("b_acc", "j_inner,k_inner", &
  !$translate&  precompute_outer_inames="i_outer, j_outer, k_outer", default_tag="l.auto")
"""

DGEMM = """\
subroutine dgemm(m,n,ell,a,b,c)
  implicit none
  real*8 a(m,ell),b(ell,n),c(m,n)
  integer m,n,k,i,j,ell
  !$translate kernel dgemm_k
{transforms}\
  do j = 1,n
    do i = 1,m
      do k = 1,ell
        c(i,j) = c(i,j) + b(k,j)*a(i,k)
      end do
    end do
  end do
  !$translate end kernel
end subroutine
""" + DGEMM_MAIN

BUFFER_C = """\
  !$translate buffer_array("c", buffer_inames="{inames}", init_expression="0", &
  !$translate&  store_expression="base+buffer")
"""

#: test_matmul, both parameters of buffer_inames.
MATMUL = DGEMM.format(transforms=MATMUL_TRANSFORMS + BUFFER_C.format(inames=""))
MATMUL_BUFFERED = DGEMM.format(
    transforms=MATMUL_TRANSFORMS + BUFFER_C.format(inames="i_inner,j_inner"))

#: test_precompute_some_exist: precompute_inames, one of them shared by both precomputes.
PRECOMPUTE_SOME_EXIST = DGEMM.format(transforms="""\
  !$translate split_iname("i", 8, outer_tag="g.0", inner_tag="l.1")
  !$translate split_iname("j", 8, outer_tag="g.1", inner_tag="l.0")
  !$translate split_iname("k", 8)
  !$translate assume("n mod 8 = 0")
  !$translate assume("m mod 8 = 0")
  !$translate assume("ell mod 8 = 0")
  !$translate extract_subst("a_acc", "a[i1,i2]", parameters="i1, i2")
  !$translate extract_subst("b_acc", "b[i1,i2]", parameters="i1, i2")
  !$translate precompute("a_acc", "k_inner,i_inner", precompute_inames="ktemp,itemp", &
  !$translate&  precompute_outer_inames="i_outer, j_outer, k_outer", default_tag="l.auto")
  !$translate precompute("b_acc", "j_inner,k_inner", precompute_inames="itemp,k2temp", &
  !$translate&  precompute_outer_inames="i_outer, j_outer, k_outer", default_tag="l.auto")
""")

#: test_batched_sparse (an expected failure in loopy too: prefetching the indirectly
#: addressed arrays under a split row loop).
BATCHED_SPARSE = """\
subroutine sparse(rowstarts, colindices, values, m, n, nvecs, nvals, x, y)
  implicit none
  integer rowstarts(m+1), colindices(nvals)
  real*8 values(nvals)
  real*8 x(n, nvecs), y(n, nvecs), rowsum(nvecs)
  integer m, n, rowstart, rowend, length, nvals, nvecs
  integer i, j, k
  !$translate kernel sparse_k
  !$translate split_iname("i", 128)
  !$translate tag_inames({"i_outer": "g.0"})
  !$translate tag_inames({"i_inner": "l.0"})
  !$translate add_prefetch("values", default_tag="l.auto")
  !$translate add_prefetch("colindices", default_tag="l.auto")
  !$translate fix_parameters(nvecs=4)
  do i = 1, m
    rowstart = rowstarts(i)
    rowend = rowstarts(i+1)
    length = rowend - rowstart
    do k = 1, nvecs
      rowsum(k) = 0
    enddo
    do k = 1, nvecs
      do j = 1, length
        rowsum(k) = rowsum(k) + &
          x(colindices(rowstart+j-1),k)*values(rowstart+j-1)
      end do
    end do
    do k = 1, nvecs
      y(i,k) = rowsum(k)
    end do
  end do
  !$translate end kernel
end

program main
  integer, parameter :: m = 200, n = 200, nvecs = 4
  integer rowstarts(m+1), colindices(3*m)
  real*8 values(3*m), x(n, nvecs), y(n, nvecs)
  integer i, k, nvals
  nvals = 0
  rowstarts(1) = 1
  do i = 1, m
    do k = 1, mod(i, 4)
      nvals = nvals + 1
      colindices(nvals) = mod(i * 7 + k * 13, n) + 1
      values(nvals) = 0.5d0 * k - 1
    end do
    rowstarts(i+1) = nvals + 1
  end do
  do k = 1, nvecs
    do i = 1, n
      x(i, k) = mod(i * k, 17) - 8
    end do
  end do
  y = 0
  call sparse(rowstarts, colindices, values, m, n, nvecs, nvals, x, y)
  print '(4(1x, f12.3))', (y(i, :), i = 1, m, 19)
end program
"""

#: test_fortran_subroutines: a call of another subroutine of the file inside the region.
SUBROUTINES = """\
subroutine twice(n, a)
  implicit none
  real*8  a(n)
  integer i,n
  do i=1,n
    a(i) = a(i) * 2
  end do
end subroutine

subroutine twice_cross(n, a, i)
  implicit none
  integer i, n
  real*8  a(n,n)
  !$translate kernel cross_k
  call twice(n, a(1:n, i))
  call twice(n, a(i, 1:n))
  !$translate end kernel
end subroutine

program main
  integer, parameter :: n = 6
  real*8 a(n, n)
  integer i, j
  do j = 1, n
    do i = 1, n
      a(i, j) = i + 10 * j
    end do
  end do
  call twice_cross(n, a, 3)
  print '(6(1x, f8.1))', a
end program
"""

#: test_domain_fusion_imperfectly_nested: with m = 0 the inner loop is empty, `a` is still set.
IMPERFECT = """\
subroutine imperfect(n, m, a, b)
  implicit none
  integer i, j, n, m
  real a(n), b(n,n)
  !$translate kernel imperfect_k
  do i=1, n
    a(i) = i
    do j=1, m
      b(i,j) = i*j
    end do
  end do
  !$translate end kernel
end subroutine

program main
  integer, parameter :: n = 9
  real a(n), b(n, n)
  integer m
  do m = 0, 2
    a = -1
    b = -1
    call imperfect(n, m, a, b)
    print '(9(1x, f6.1))', a
    print '(9(1x, f6.1))', b(:, 1), b(:, 2)
  end do
end program
"""

#: examples/fortran/matmul.floopy: dgemm with alpha, k outside i.
EXAMPLE_MATMUL = """\
subroutine dgemm(m,n,l,alpha,a,b,c)
  implicit none
  real*8 a(m,l),b(l,n),c(m,n), alpha
  integer m,n,k,i,j,l
  !$translate kernel dgemm_k
  !$translate split_iname("i", 16, outer_tag="g.0", inner_tag="l.1")
  !$translate split_iname("j", 8, outer_tag="g.1", inner_tag="l.0")
  !$translate split_iname("k", 32)
  !$translate extract_subst("a_acc", "a[i1,i2]", parameters="i1, i2")
  !$translate extract_subst("b_acc", "b[i1,i2]", parameters="i1, i2")
  !$translate precompute("a_acc", "k_inner,i_inner", default_tag="l.auto")
  !$translate precompute("b_acc", "j_inner,k_inner", default_tag="l.auto")
  do j = 1,n
    do k = 1,l
      do i = 1,m
        c(i,j) = c(i,j) + alpha*b(k,j)*a(i,k)
      end do
    end do
  end do
  !$translate end kernel
end subroutine

program main
  integer, parameter :: m = 100, n = 60, l = 70
  real*8 a(m, l), b(l, n), c(m, n)
  integer i, j
  do j = 1, l
    do i = 1, m
      a(i, j) = mod(i * 7 + j * 3, 11) - 5
    end do
  end do
  do j = 1, n
    do i = 1, l
      b(i, j) = mod(i * 5 + j * 2, 13) - 6
    end do
  end do
  c = 1
  call dgemm(m, n, l, 0.5d0, a, b, c)
  print '(4(1x, f16.3))', c(1, 1), c(m, n), c(17, 33), sum(c)
end program
"""

#: examples/fortran/sparse.floopy: CSR matrix-vector product, rows over work items.
EXAMPLE_SPARSE = """\
subroutine sparse(rowstarts, colindices, values, m, n, nvals, x, y)
  implicit none
  integer rowstarts(m+1), colindices(nvals)
  real*8 values(nvals)
  real*8 x(n), y(n), rowsum
  integer m, n, rowstart, rowend, length, nvals
  integer i, j
  !$translate kernel sparse_k
  !$translate split_iname("i", 128)
  !$translate tag_inames({"i_outer": "g.0"})
  !$translate tag_inames({"i_inner": "l.0"})
  !$translate split_iname("j", 4)
  !$translate tag_inames({"j_inner": "unr"})
  do i = 1, m
    rowstart = rowstarts(i)
    rowend = rowstarts(i+1)
    length = rowend - rowstart
    rowsum = 0
    do j = 1, length
      rowsum = rowsum + &
        x(colindices(rowstart+j-1))*values(rowstart+j-1)
    end do
    y(i) = rowsum
  end do
  !$translate end kernel
end

program main
  integer, parameter :: m = 300, n = 300
  integer rowstarts(m+1), colindices(9*m)
  real*8 values(9*m), x(n), y(n)
  integer i, k, nvals
  nvals = 0
  rowstarts(1) = 1
  do i = 1, m
    do k = 1, mod(i * 5, 10)
      nvals = nvals + 1
      colindices(nvals) = mod(i * 7 + k * 13, n) + 1
      values(nvals) = 0.5d0 * k - 1
    end do
    rowstarts(i+1) = nvals + 1
  end do
  do i = 1, n
    x(i) = mod(i, 17) - 8
  end do
  y = 0
  call sparse(rowstarts, colindices, values, m, n, nvals, x, y)
  print '(5(1x, f12.3))', y(1:m:7)
end program
"""

#: examples/fortran/tagging.floopy: a tagged first loop and a second loop over i (i_1).
EXAMPLE_TAGGING = """\
subroutine fill(out, a, n)
  implicit none
  real*8 a, out(n)
  integer n, i
  !$translate kernel fill_k
  !$translate split_iname("i", 128, outer_tag="g.0", inner_tag="l.0")
  !$translate split_iname("i_1", 128, outer_tag="g.0", inner_tag="l.0")
  !$translate block tags(init)
  do i = 1, n
    out(i) = a
  end do
  !$translate end block
  do i = 1, n
    out(i) = out(i) * 2
  end do
  !$translate end kernel
end
""" + FILL_MAIN

#: examples/fortran/volumeKernel.floopy: a procedure-local work array F shared by a work
#: group (one element per group, i, j, k over local ids).
EXAMPLE_VOLUME = """\
! translate-test: rtol=1e-5
subroutine volumeKernel(elements, Nfields, Ngeo, Ndim, Dop, geo, Q, rhsQ)
  implicit none
  integer, parameter :: Nq = 5
  integer elements, Nfields, Ngeo, Ndim
  real*4 Dop(Nq,Nq)
  real*4 Q(Nq,Nq,Nq,Nfields,elements)
  real*4 geo(Nq,Nq,Nq,Ngeo,elements)
  real*4 rhsQ(Nq,Nq,Nq,Nfields,elements)
  integer e,i,j,k,d,n,cnt
  real*4 u,v,w,p, dFdr, dFds, dFdt, divF
  real*4 F(Nq,Nq,Nq,Ndim)
  !$translate kernel volume_k
  !$translate split_iname("e", 32, outer_tag="g.1", inner_tag="g.0")
  !$translate fix_parameters(Ndim=3)
  !$translate tag_inames({"i": "l.0", "j": "l.1", "k": "l.2", "i_1": "l.0", "j_1": "l.1", "k_1": "l.2"})
  !$translate set_temporary_address_space("F", "local")
  do e=1,elements
    do k=1,Nq
      do j=1,Nq
        do i=1,Nq
          u = Q(i,j,k,1,e)
          v = Q(i,j,k,2,e)
          w = Q(i,j,k,3,e)
          p = Q(i,j,k,4,e)
          F(i,j,k,1) = -u
          F(i,j,k,2) = -v
          F(i,j,k,3) = -w
        end do
      end do
    end do
    do k=1,Nq
      do j=1,Nq
        do i=1,Nq
          divF = 0
          cnt = 1
          do d=1,Ndim
            dFdr = 0
            dFds = 0
            dFdt = 0
            do n=1,Nq
              dFdr = dFdr + Dop(i,n)*F(n,j,k,d)
              dFds = dFds + Dop(j,n)*F(i,n,k,d)
              dFdt = dFdt + Dop(k,n)*F(i,j,n,d)
            end do
            divF = divF &
                 + geo(i,j,k,cnt,e)*dFdr &
                 + geo(i,j,k,cnt+1,e)*dFds &
                 + geo(i,j,k,cnt+2,e)*dFdt
            cnt = cnt + Ndim
          end do
          rhsQ(i,j,k,1,e) = divF
        end do
      end do
    end do
  end do
  !$translate end kernel
end subroutine volumeKernel

program main
  integer, parameter :: Nq = 5, Nfields = 4, Ngeo = 9, elements = 70
  real*4 Dop(Nq,Nq), Q(Nq,Nq,Nq,Nfields,elements), geo(Nq,Nq,Nq,Ngeo,elements)
  real*4 rhsQ(Nq,Nq,Nq,Nfields,elements)
  integer i, j, k, f, e
  do j = 1, Nq
    do i = 1, Nq
      Dop(i, j) = 0.1 * mod(i * 3 + j, 7) - 0.3
    end do
  end do
  do e = 1, elements
    do f = 1, Nfields
      do k = 1, Nq
        do j = 1, Nq
          do i = 1, Nq
            Q(i, j, k, f, e) = 0.01 * mod(i + 2 * j + 3 * k + 5 * f + e, 19)
          end do
        end do
      end do
    end do
    do f = 1, Ngeo
      do k = 1, Nq
        do j = 1, Nq
          do i = 1, Nq
            geo(i, j, k, f, e) = 0.02 * mod(i * j + k + f * e, 23) - 0.2
          end do
        end do
      end do
    end do
  end do
  rhsQ = 0
  call volumeKernel(elements, Nfields, Ngeo, 3, Dop, geo, Q, rhsQ)
  print '(5(1x, es14.6))', rhsQ(:, 2, 3, 1, 1), rhsQ(:, 1, 1, 1, elements), sum(rhsQ)
end program
"""

#: name -> program text, in the order of loopy's test file, then its examples.
PRAGMA_CASES = {
    "assign_double_precision_scalar": ASSIGN_DOUBLE,
    "assign_double_precision_scalar_as_rational": ASSIGN_RATIONAL,
    "assign_single_precision_scalar": ASSIGN_SINGLE,
    "fill": FILL,
    "fill_const": FILL_CONST,
    "asterisk_in_shape": ASTERISK,
    "assignment_to_subst": TO_SUBST,
    "assignment_to_subst_two_defs": TO_SUBST_TWO_DEFS,
    "assignment_to_subst_indices": TO_SUBST_INDICES,
    "if": IF_BRANCH,
    "tagged": TAGGED,
    "matmul": MATMUL,
    "matmul_buffered": MATMUL_BUFFERED,
    "batched_sparse": BATCHED_SPARSE,
    "precompute_some_exist": PRECOMPUTE_SOME_EXIST,
    "fortran_subroutines": SUBROUTINES,
    "domain_fusion_imperfectly_nested": IMPERFECT,
    "example_matmul": EXAMPLE_MATMUL,
    "example_sparse": EXAMPLE_SPARSE,
    "example_tagging": EXAMPLE_TAGGING,
    "example_volume_kernel": EXAMPLE_VOLUME,
}

#: The C neighbour of the sparse example: the row length computed in the row loop bounds the
#: inner loop.
C_SPARSE = """\
#include <stdio.h>
void sparse(int m, int n, int nvals, const int rowstarts[m + 1], const int colindices[nvals],
            const double values[nvals], const double x[n], double y[m]) {
#pragma translate kernel sparse_k
#pragma translate split_iname("i", 128, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < m; i++) {
    int rowstart = rowstarts[i];
    int length = rowstarts[i + 1] - rowstart;
    double rowsum = 0;
    for (int j = 0; j < length; j++)
      rowsum += x[colindices[rowstart + j]] * values[rowstart + j];
    y[i] = rowsum;
  }
#pragma translate end kernel
}

int main(void) {
  enum { M = 300, N = 300 };
  static int rowstarts[M + 1], colindices[9 * M];
  static double values[9 * M], x[N], y[M];
  int nvals = 0;
  for (int i = 0; i < M; i++) {
    rowstarts[i] = nvals;
    for (int k = 0; k < (i * 5) % 10; k++) {
      colindices[nvals] = (i * 7 + k * 13) % N;
      values[nvals++] = 0.5 * k - 1;
    }
  }
  rowstarts[M] = nvals;
  for (int i = 0; i < N; i++) x[i] = i % 17 - 8;
  sparse(M, N, nvals, rowstarts, colindices, values, x, y);
  for (int i = 0; i < M; i += 7) printf("%.3f\\n", y[i]);
  return 0;
}
"""
