"""The public API: every name documented, and the type stubs in step with the module."""

import ast
import inspect
from pathlib import Path

import tafl_engine as te
import tafl_engine._core as core

STUBS = Path(core.__file__).with_name("_core.pyi")


def stub_names():
    """Top-level names of _core.pyi, and for each class the names of its members."""
    tree = ast.parse(STUBS.read_text())
    names, members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        if isinstance(node, ast.ClassDef):
            members[node.name] = {
                item.name if isinstance(item, ast.FunctionDef) else item.target.id
                for item in node.body
                if isinstance(item, (ast.FunctionDef, ast.AnnAssign))
            }
    return names, members


def public_members(cls):
    return {
        name
        for name in vars(cls)
        if not name.startswith("__") or name in ("__init__", "__eq__", "__copy__", "__deepcopy__")
    }


def test_the_package_exports_the_module():
    assert set(te.__all__) <= set(dir(core))
    for name in te.__all__:
        assert getattr(te, name) is getattr(core, name)


def test_every_public_name_has_a_docstring():
    for name in te.__all__:
        value = getattr(te, name)
        if callable(value):
            assert inspect.getdoc(value), name
    for cls in (te.Game, te.ActionSpace, te.Engine, te.SearchResult, te.BatchEnv):
        assert inspect.getdoc(cls), cls.__name__
        for name in public_members(cls) - {"__init__", "__hash__"}:
            assert inspect.getdoc(getattr(cls, name)), f"{cls.__name__}.{name}"


def test_stubs_name_everything_the_module_has():
    names, members = stub_names()
    runtime = {name for name in dir(core) if not name.startswith("__") or name == "__version__"}
    assert runtime == names
    for cls in (te.Game, te.ActionSpace, te.Engine, te.SearchResult, te.BatchEnv):
        expected = public_members(cls) - {"__init__", "__eq__", "__copy__", "__deepcopy__"}
        stubbed = members[cls.__name__] - {"__init__", "__eq__", "__copy__", "__deepcopy__", "__hash__", "__reduce__"}
        assert stubbed == expected, cls.__name__


def test_no_docstring_points_at_a_file_users_do_not_have():
    for name in te.__all__:
        assert "RULES.md" not in (inspect.getdoc(getattr(te, name)) or ""), name
    for cls in (te.Game, te.ActionSpace, te.Engine, te.SearchResult, te.BatchEnv):
        for name in public_members(cls):
            assert "RULES.md" not in (inspect.getdoc(getattr(cls, name)) or ""), f"{cls.__name__}.{name}"
    assert "RULES.md" not in STUBS.read_text()


def test_the_package_is_typed():
    assert STUBS.exists()
    assert STUBS.with_name("py.typed").exists()
