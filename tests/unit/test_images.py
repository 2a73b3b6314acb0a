"""OpenCL images: change_arg_to_image, the device code, pyopencl execution, host glue (e2e)."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

import transforms
import translator
from tests.unit.transforms.builders import arr, check, knl
from translator.diagnostics import CodegenError, TransformError
from translator.ir.parse import GlobalArg


def stencil(dtype=np.float32, order="C"):
    """A 5-point stencil reading `a`, on 16 x 8 work groups."""
    k = knl("{[i, j]: 1<=i<n-1 and 1<=j<m-1}",
            "out[i, j] = a[i-1, j] + a[i+1, j] + 2*a[i, j] - a[i, j-1] + 3*a[i, j+1]",
            GlobalArg("a", dtype, shape="n, m", order=order),
            GlobalArg("out", dtype, shape="n, m", order=order))
    k = transforms.split_iname(k, "i", 8, outer_tag="g.1", inner_tag="l.1")
    return transforms.split_iname(k, "j", 16, outer_tag="g.0", inner_tag="l.0")


def cube(dtype=np.int32):
    return knl("{[i, j, k]: 0<=i<p and 0<=j<q and 0<=k<r}",
               "out[i, j, k] = 3*a[i, j, k] - a[p-1-i, j, r-1-k]",
               arr("a", "p, q, r", dtype), arr("out", "p, q, r", dtype))


def image(kernel, name="a"):
    return transforms.change_arg_to_image(kernel, name)


# ---------------------------------------------------------------------------------------------
# structure


def test_image_arg_prints_and_parses_back():
    k = image(stencil())
    assert k.arg("a").is_image and not k.arg("out").is_image
    text = translator.print_kernel(k)
    assert "address_space=image" in text
    assert translator.parse_kernel(text) == k
    assert image(k) is k   # already an image: nothing changes


def test_device_code_2d():
    code = translator.generate_code(image(stencil()))
    src = code.device_code
    assert "__read_only image2d_t a," in src
    assert ("const sampler_t _tr_sampler = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | "
            "CLK_FILTER_NEAREST;") in src
    # x is the last (contiguous) axis
    assert "read_imagef(a, _tr_sampler, (int2)(" in src and ").x" in src
    assert "a[" not in src
    (prm,) = [kp for kp in code.params if kp.name == "a"]
    assert (prm.kind, prm.is_input, prm.is_output) == ("image", True, False)
    assert [str(e) for e in prm.image_extents] == ["m", "n"]


def test_device_code_3d_int_and_fortran_order():
    src = translator.generate_code(image(cube())).device_code
    assert "__read_only image3d_t a" in src
    assert "read_imagei(a, _tr_sampler, (int4)(k, j, i, 0)).x" in src
    f_order = translator.generate_code(image(stencil(order="F")))
    (prm,) = [kp for kp in f_order.params if kp.name == "a"]
    assert [str(e) for e in prm.image_extents] == ["n", "m"]   # x is the first axis


# ---------------------------------------------------------------------------------------------
# execution on the CPU device (sizes not multiples of the work-group size)


@pytest.mark.parametrize("order", ["C", "F"])
def test_stencil_float32_image(ctx, queue, order):
    ref = stencil(order=order)
    check(ref, image(ref), ctx, n=37, m=29)
    a = np.random.default_rng(1).uniform(-1, 1, (37, 29)).astype(np.float32)
    out = translator.compile(image(ref), ctx)(queue, a=a)["out"]
    want = (a[:-2, 1:-1] + a[2:, 1:-1] + 2 * a[1:-1, 1:-1] - a[1:-1, :-2] + 3 * a[1:-1, 2:])
    np.testing.assert_allclose(out[1:-1, 1:-1], want, rtol=1e-5, atol=1e-6)


def test_3d_int32_image(ctx, queue):
    a = np.arange(5 * 6 * 7, dtype=np.int32).reshape(5, 6, 7) * 7 - 100
    out = translator.compile(image(cube()), ctx)(queue, a=a)["out"]
    np.testing.assert_array_equal(out, 3 * a - a[::-1, :, ::-1])


def test_1d_image_and_empty_extent(ctx, queue):
    k = image(knl("{[i]: 0<=i<n}", "out[i] = a[n-1-i] * 2", arr("a", "n"), arr("out", "n")))
    assert "__read_only image1d_t a" in translator.generate_code(k).device_code
    a = np.linspace(0, 1, 19, dtype=np.float32)
    out = translator.compile(k, ctx)(queue, a=a)["out"]
    np.testing.assert_array_equal(out, a[::-1] * 2)
    empty = translator.compile(k, ctx)(queue, a=np.zeros(0, np.float32))["out"]
    assert empty.shape == (0,)


def test_untyped_argument_takes_the_dtype_passed(ctx, queue):
    k = image(knl("{[i, j]: 0<=i<n and 0<=j<m}", "out[i, j] = a[i, j] + 1",
                  GlobalArg("a", shape="n, m"), GlobalArg("out", shape="n, m")))
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    out = translator.compile(k, ctx)(queue, a=a)["out"]
    np.testing.assert_array_equal(out, a + 1)
    with pytest.raises(CodegenError, match="not float64 .float64 has no image channel type"):
        translator.generate_code(k)   # untyped inputs default to float64


# ---------------------------------------------------------------------------------------------
# errors


def test_written_argument_is_refused():
    k = knl("{[i]: 0<=i<n}", "a[i] = a[i] + 1", arr("a", "n"))
    with pytest.raises(TransformError, match="cannot make 'a' an image: the kernel writes it, "
                                             "and images are read-only"):
        image(k)


def test_float64_is_refused():
    k = knl("{[i]: 0<=i<n}", "out[i] = a[i]", arr("a", "n", np.float64), arr("out", "n"))
    with pytest.raises(TransformError, match="images hold float32 or int32 elements, not "
                                             "float64 .float64 has no image channel type; "
                                             "use float32"):
        image(k)


def test_four_axes_are_refused():
    k = knl("{[i, j, k, l]: 0<=i,j,k,l<2}", "out[i, j, k, l] = a[i, j, k, l]",
            arr("a", "2, 2, 2, 2"), arr("out", "2, 2, 2, 2"))
    with pytest.raises(TransformError, match="it has 4 axes; images have 1 to 3"):
        image(k)


def test_flat_index_and_layouts_are_refused():
    k = knl("{[i, j]: 0<=i<n and 0<=j<4}", "out[i, j] = a[[4*i + j]]",
            arr("a", "n, 4"), arr("out", "n, 4"))
    with pytest.raises(TransformError, match="it is read through a flat index"):
        image(k)
    padded = transforms.add_padding(stencil(), "a", 0, 64)
    with pytest.raises(TransformError, match="needs a dense layout"):
        image(padded)
    with pytest.raises(TransformError, match="'n' is not an array argument"):
        image(stencil(), "n")


def test_image_temporary_is_refused():
    from translator.diagnostics import KernelLanguageError
    from translator.ir.data import AddressSpace, TemporaryVariable
    with pytest.raises(KernelLanguageError, match="only array arguments can be images"):
        TemporaryVariable(name="t", dtype=np.float32, shape=(4,),
                          address_space=AddressSpace.IMAGE)


# ---------------------------------------------------------------------------------------------
# end to end: a C program, translated, built with the runtime, against the original

C_PROGRAM = textwrap.dedent("""\
    /* translate-test: rtol=1e-6 */
    #include <stdio.h>

    static void blur(int n, int m, const float a[n][m], float b[n][m])
    {
    #pragma translate kernel blur
    #pragma translate change_arg_to_image("a")
    #pragma translate split_iname("i", 8, outer_tag="g.1", inner_tag="l.1")
    #pragma translate split_iname("j", 16, outer_tag="g.0", inner_tag="l.0")
      for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < m - 1; j++)
          b[i][j] = 0.25f * (a[i - 1][j] + a[i + 1][j]) + 0.5f * a[i][j] - a[i][j + 1];
    #pragma translate end kernel
    }

    static void flip(int p, int q, int r, const int a[p][q][r], int b[p][q][r])
    {
    #pragma translate kernel flip
    #pragma translate change_arg_to_image("a")
      for (int i = 0; i < p; i++)
        for (int j = 0; j < q; j++)
          for (int k = 0; k < r; k++)
            b[i][j][k] = a[p - 1 - i][j][r - 1 - k] * 2 - a[i][j][k];
    #pragma translate end kernel
    }

    static float x[23][37], y[23][37];
    static int u[3][5][7], w[3][5][7];

    int main(void)
    {
      for (int i = 0; i < 23; i++)
        for (int j = 0; j < 37; j++)
          x[i][j] = (float)((i * 7 + j * 3) % 11) / 4.0f;
      for (int i = 0; i < 3 * 5 * 7; i++)
        u[i / 35][(i / 7) % 5][i % 7] = i * i % 17 - 5;
      blur(23, 37, x, y);
      flip(3, 5, 7, u, w);
      for (int i = 0; i < 23; i += 3)
        for (int j = 0; j < 37; j += 4)
          printf("y %d %d %.9g\\n", i, j, y[i][j]);
      for (int i = 0; i < 3 * 5 * 7; i++)
        printf("w %d %d\\n", i, w[i / 35][(i / 7) % 5][i % 7]);
      return 0;
    }
    """)


def test_c_program_with_images_matches_the_original(tmp_path):
    from tests.e2e.harness import check_sample
    src = tmp_path / "images.c"
    src.write_text(C_PROGRAM)
    out = check_sample(src, tmp_path)
    assert "w 104 " in out
    host = next(tmp_path.rglob("images.host.c")).read_text()
    assert "tr_arg_image(&_tr_call, 0, a, 2, " in host and "CL_FLOAT);" in host
    assert "CL_SIGNED_INT32);" in host


F_PROGRAM = textwrap.dedent("""\
    ! translate-test: rtol=1e-6
    program main
      implicit none
      integer, parameter :: n = 13, m = 21
      real(4) :: a(n, m), b(n, m)
      integer :: i, j
      do j = 1, m
        do i = 1, n
          a(i, j) = real(mod(i * 5 + j * 3, 7)) / 3.0
        end do
      end do
      b = 0
      call sten(n, m, a, b)
      do j = 1, m, 2
        do i = 1, n, 2
          print '(2i4, es16.8)', i, j, b(i, j)
        end do
      end do
    contains
      subroutine sten(n, m, a, b)
        integer, intent(in) :: n, m
        real(4), intent(in) :: a(n, m)
        real(4), intent(inout) :: b(n, m)
        integer :: i, j
        !$translate kernel sten
        !$translate change_arg_to_image("a")
        do j = 2, m - 1
          do i = 2, n - 1
            b(i, j) = a(i - 1, j) + 2.0 * a(i, j + 1) - a(i + 1, j - 1)
          end do
        end do
        !$translate end kernel
      end subroutine
    end program
    """)


def test_fortran_program_with_an_image_matches_the_original(tmp_path):
    """Fortran arrays are column-major: the image's x axis is the first array axis."""
    from tests.e2e.harness import check_sample
    src = tmp_path / "img.f90"
    src.write_text(F_PROGRAM)
    check_sample(src, tmp_path)
    device = next(tmp_path.rglob("img.cl")).read_text()
    assert "__read_only image2d_t a" in device and "read_imagef(a, _tr_sampler" in device
