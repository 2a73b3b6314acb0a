"""h2: translate dotonly.c with several (groups, accumulators) settings of the worktree."""
import sys
import translator.codegen.bounded_groups as bg
from translator import cli
for groups, unroll in ((1024, 1), (1024, 2), (1024, 4), (1024, 8), (528, 4), (2048, 4), (2048, 2)):
    bg.bound_reduction_groups.__defaults__ = (groups, unroll)
    sys.argv = ["translate", "dotonly.c", "-o", f"t_g{groups}_u{unroll}"]
    try:
        cli.main()
    except SystemExit as e:
        assert not e.code, e.code
sys.argv = ["translate", "tinydot.c", "-o", "tiny"]
bg.bound_reduction_groups.__defaults__ = (1024, 4)
try:
    cli.main()
except SystemExit as e:
    assert not e.code, e.code
