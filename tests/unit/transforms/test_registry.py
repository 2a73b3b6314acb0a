"""The registry: lookup, calls as from pragmas (spans, arity), listing, plugins."""

from __future__ import annotations

import textwrap
import warnings

import pytest

import transforms
from tests.unit.transforms.builders import assign, build
from translator.diagnostics import SourceSpan, TransformError, TranslatorWarning
from translator.ir.kernel import Kernel
from transforms import registry

SPAN = SourceSpan(file="src.f90", line=7, col=3, source_line="!$translate split_iname(...)")


def knl():
    return build("{[i]: 0<=i<n}", [assign("s0", "out[i]", "2*a[i]", ["i"])])


@pytest.fixture
def clean_registry():
    saved, loaded = dict(registry._REGISTRY), dict(registry._loaded)
    yield
    registry._REGISTRY.clear()
    registry._REGISTRY.update(saved)
    registry._loaded.update(loaded)


def test_get_transform_and_reexports():
    assert transforms.get_transform("split_iname") is transforms.split_iname
    names = [n for n, _, _ in transforms.list_transforms()]
    for name in names:
        assert getattr(transforms, name) is transforms.get_transform(name)
    assert {"split_iname", "chunk_iname", "join_inames", "tag_inames", "untag_inames",
            "prioritize_loops", "rename_iname", "rename_inames", "remove_unused_inames",
            "fix_parameters", "assume", "set_options", "add_dtypes", "infer_unknown_types",
            "add_and_infer_dtypes"} <= set(names)


def test_unknown_transform_suggests():
    with pytest.raises(TransformError) as err:
        transforms.get_transform("splt_iname")
    assert err.value.message == "unknown transform 'splt_iname' (did you mean 'split_iname'?)"
    with pytest.raises(TransformError) as err:
        transforms.apply_call(knl(), "zzzz", span=SPAN)
    assert err.value.message == "unknown transform 'zzzz'" and err.value.span == SPAN


def test_list_transforms_is_sorted_with_signatures():
    rows = transforms.list_transforms()
    assert [r[0] for r in rows] == sorted(r[0] for r in rows)
    row = dict((r[0], r) for r in rows)["split_iname"]
    assert row[1].startswith("(split_iname, inner_length, *, outer_iname=None")
    assert row[2] == "Split an iname into an outer and an inner iname of fixed length " \
                     "`inner_length`."


def test_apply_call_like_a_pragma():
    out = transforms.apply_call(knl(), "split_iname", ("i", 4),
                                (("outer_tag", "g.0"), ("inner_tag", "l.0")), span=SPAN)
    assert out == transforms.split_iname(knl(), "i", 4, outer_tag="g.0", inner_tag="l.0")
    out = transforms.apply_call(knl(), "fix_parameters", (), {"n": 8})
    assert "n" not in out.arg_names


@pytest.mark.parametrize("name, args, kwargs, message", [
    ("split_iname", ("i",), {}, "split_iname: missing a required argument: 'inner_length'"),
    ("split_iname", ("i", 4), {"outer_tga": "g.0"},
     "split_iname: got an unexpected keyword argument 'outer_tga' (did you mean "
     "'outer_tag'?)"),
    ("split_iname", ("i", 4, "io"), {}, "split_iname: too many positional arguments"),
    ("tag_inames", ("i:l.0",), {"iname_to_tag": "i:l.0"},
     "tag_inames: multiple values for argument 'iname_to_tag'"),
])
def test_arity_errors_carry_span_and_signature(name, args, kwargs, message):
    with pytest.raises(TransformError) as err:
        transforms.apply_call(knl(), name, args, kwargs, span=SPAN)
    assert err.value.message == message
    assert err.value.span == SPAN
    assert err.value.notes[0].message.startswith(f"{name} takes (")
    assert "src.f90:7:3: error: " + message in err.value.render()


def test_errors_inside_get_the_span():
    with pytest.raises(TransformError) as err:
        transforms.apply_call(knl(), "split_iname", ("q", 4), span=SPAN)
    assert err.value.span == SPAN and "unknown iname 'q'" in err.value.message
    own = SourceSpan(file="other.c", line=1)

    def failing(kernel: Kernel) -> Kernel:
        raise TransformError("mine", own)
    registry._register("_test_failing", failing)
    try:
        with pytest.raises(TransformError) as err:
            transforms.apply_call(knl(), "_test_failing", span=SPAN)
        assert err.value.span == own      # an error with its own span keeps it
    finally:
        del registry._REGISTRY["_test_failing"]


def test_decorator_forms_and_duplicates(clean_registry):
    @transforms.transform
    def _test_bare(kernel: Kernel) -> Kernel:
        """Bare."""
        return kernel

    @transforms.transform("_test_named")
    def whatever(kernel: Kernel, x: int = 1) -> Kernel:
        """Named one."""
        return kernel

    assert transforms.get_transform("_test_bare") is _test_bare
    assert transforms.get_transform("_test_named") is whatever
    assert ("_test_named", "(x=1)", "Named one.") in transforms.list_transforms()
    with pytest.raises(ValueError, match="transform '_test_named' is already registered"):
        transforms.transform("_test_named")(lambda kernel: kernel)


def test_non_kernel_result_is_an_error(clean_registry):
    registry._register("_test_bad", lambda kernel: 3)
    with pytest.raises(TransformError, match="transform '_test_bad' returned int, not a "
                                             "Kernel"):
        transforms.apply_call(knl(), "_test_bad")


def _write_plugin(tmp_path, entry_points: str) -> None:
    (tmp_path / "tr_test_plugin.py").write_text(textwrap.dedent('''
        from transforms import transform

        @transform("tr_plugin_decorated")
        def decorated(kernel):
            """From a plugin module."""
            return kernel

        def plain(kernel, suffix="x"):
            """A plain callable."""
            return kernel.copy(name=kernel.name + suffix)
    '''))
    dist = tmp_path / "tr_test_plugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: tr-test-plugin\n"
                                   "Version: 0.1\n")
    (dist / "entry_points.txt").write_text(entry_points)


def test_plugins_from_entry_points(tmp_path, monkeypatch, clean_registry):
    _write_plugin(tmp_path, textwrap.dedent("""
        [translator.transforms]
        tr_plugin_module = tr_test_plugin
        tr_plugin_plain = tr_test_plugin:plain
        tr_plugin_broken = tr_test_plugin_missing:nothing
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    registry._loaded["plugins"] = False
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = transforms.apply_call(knl(), "tr_plugin_plain", (), {"suffix": "_p"})
    assert out.name == "knl_p"
    assert transforms.get_transform("tr_plugin_decorated").__doc__ == "From a plugin module."
    msgs = [w.message for w in caught if isinstance(w.message, TranslatorWarning)]
    assert len(msgs) == 1 and msgs[0].warning_id == "plugin"
    assert "transform plugin 'tr_plugin_broken'" in msgs[0].message
