"""``present(opt)`` of an OPTIONAL dummy in a region (h71, after h67's `opt1.f90`).  Before,
"intrinsic function 'present' is not supported in a kernel region" (an OpenMP loop left as
written).  Now the region is built twice, with the argument present and absent, and the
rewritten call chooses with ``if (present(w))``: where it is absent the glue never sees it
(its extents are not asked either: `size(w)` of an absent argument is undefined).  A callee
called with an optional left out, or passed the region's own optional, tests it likewise
(`opt5.f90`; before: "call of subroutine 'weigh' leaves dummy argument 'w' absent").  A use
outside every ``if (present(w))`` is refused at its line.

h78: a region may test two or three optionals (`bench/h78_hunt/opt78.f90`, `opt78b.f`; before:
"the region tests present() of two OPTIONAL arguments"): built once per combination of
present and absent, the call chosen by ``present`` of each; a sixth is refused (h85; a
fourth before)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, check_sample

HUNT = REPO / "bench" / "h71_hunt"

UNGUARDED = """\
subroutine s(n, x, w)
  integer, intent(in) :: n
  real(8), intent(inout) :: x(n)
  real(8), intent(in), optional :: w(n)
  integer :: i
  !$translate kernel
  do i = 1, n
    if (present(w)) x(i) = x(i) * 2.0d0
    x(i) = x(i) + w(i)
  end do
  !$translate end kernel
end subroutine
"""

SIX = """\
subroutine t(n, x, w, v, a, b, c, d)
  integer, intent(in) :: n
  real(8), intent(inout) :: x(n)
  real(8), intent(in), optional :: w(n), v(n), a, b, c, d
  integer :: i
  !$translate kernel
  do i = 1, n
    if (present(w)) x(i) = x(i) * w(i)
    if (present(v)) x(i) = x(i) * v(i)
    if (present(a)) x(i) = x(i) + a
    if (present(b)) x(i) = x(i) - b
    if (present(c)) x(i) = x(i) - c
    if (present(d)) x(i) = x(i) - d
  end do
  !$translate end kernel
end subroutine
"""

H78 = REPO / "bench" / "h78_hunt"


@pytest.mark.parametrize("name", ["opt2.f90", "opt3.f", "opt4.f90", "opt5.f90"])
def test_present_chooses_a_kernel_at_the_call(tmp_path: Path, name: str) -> None:
    src = tmp_path / name
    src.write_text((HUNT / name).read_text())
    check_sample(src, tmp_path)
    rewritten = (tmp_path / "out" / name).read_text()
    # opt4: present(w) .and. x(i) > t, .not. present(w) .or. x(i) < -t
    assert "if (present(w)) then" in rewritten
    if name == "opt2.f90":   # the absent kernel is passed neither w nor its extent
        assert "call translate_axpy_0_absent_w(y, x, n, a, size(x, 1), size(y, 1))" in rewritten


@pytest.mark.parametrize("name", ["opt78.f90", "opt78b.f"])
def test_two_and_three_optionals_choose_among_their_combinations(tmp_path: Path,
                                                                 name: str) -> None:
    src = tmp_path / name
    src.write_text((H78 / name).read_text())
    check_sample(src, tmp_path)
    rewritten = (tmp_path / "out" / name).read_text()
    if name == "opt78.f90":
        # 8 kernels; the second optional of scale_k is tested only where w is absent, and
        # nothing runs where both are absent (no call there)
        assert ("else if (.not. present(w) .and. .not. present(bias) .and. present(mask)) "
                "then\n      call translate_relax_k_absent_w_bias(f, u, mask, n)\n    else\n"
                "      call translate_relax_k_absent_w_bias_mask(f, u, n)\n    end if"
                ) in rewritten
        assert ("    else if (.not. present(w) .and. present(bias)) then\n"
                "      call translate_scale_k_absent_w(u, n, bias)\n    end if") in rewritten


def _error(tmp_path: Path, text: str) -> str:
    src = tmp_path / "opt.f90"
    src.write_text(text)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    return done.stderr


def test_an_unguarded_use_and_six_optionals_are_refused(tmp_path: Path) -> None:
    """Six tested optionals (64 builds) are refused; five are the most (h85; three before)."""
    err = _error(tmp_path, UNGUARDED)
    assert ("opt.f90:9:5: error: OPTIONAL dummy 'w' is used where the region does not test "
            "present(w): the kernel must not touch it when it is absent; put the use under if "
            "(present(w)) then ... end if") in err
    err = _error(tmp_path, SIX)
    assert ("opt.f90:13:17: error: the region tests present() of 6 OPTIONAL arguments ('w', "
            "'v', 'a', 'b', 'c', 'd'); at most 5 are supported (a kernel for each combination "
            "of present and absent): split it into regions that test fewer") in err
