"""Rules of this project that a reader of the source can check, checked on the source.

- Imports point down only: the pages (and streamlit_app.py, navigation.py) never import
  autograd, playground never imports Streamlit, and autograd imports NumPy and the standard library only (graphviz
  inside the functions that draw).
- Nothing under playground/ or pages/ can run text as code: no eval, exec, compile or
  __import__ (re patterns are plain strings, re caches them), no pickle, marshal or shelve.
- No module-level mutable state there: Streamlit serves every user from threads of one process,
  so a module-level list or dict that is ever changed would be shared by the whole class. Such
  containers may exist only as constants (never assigned into, never mutated), nothing says
  `global`, and no function keeps a cache of its own (functools.cache, lru_cache): the one
  shared cache is playground.memo.Memo, of immutable results keyed by the graph.
"""

from __future__ import annotations

import ast
import functools
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APP_FILES = sorted(
    p for folder in ("playground", "pages") for p in (ROOT / folder).rglob("*.py")
) + [ROOT / "streamlit_app.py", ROOT / "navigation.py"]
FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__"}
FORBIDDEN_MODULES = {"pickle", "marshal", "shelve", "dill", "cloudpickle", "_pickle"}
MUTATORS = {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault",
            "add", "discard", "popitem", "sort", "reverse", "appendleft", "popleft",
            "__setitem__", "__delitem__"}
MUTABLE_MAKERS = {"list", "dict", "set", "defaultdict", "OrderedDict", "deque", "Counter"}
CACHE_DECORATORS = {"cache", "lru_cache", "cached_property"}


@functools.cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _ids(paths) -> list[str]:
    return [str(p.relative_to(ROOT)) for p in paths]


def _called_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


@pytest.mark.parametrize("path", APP_FILES, ids=_ids(APP_FILES))
def test_no_app_module_runs_text_as_code(path):
    problems = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Call) and _called_name(node) in FORBIDDEN_CALLS:
            problems.append(f"line {node.lineno}: calls {_called_name(node)}")
        if isinstance(node, ast.Name) and node.id in FORBIDDEN_CALLS | {"__builtins__"}:
            problems.append(f"line {node.lineno}: names {node.id}")
        if isinstance(node, ast.Import):
            problems += [f"line {node.lineno}: imports {a.name}" for a in node.names
                         if a.name.split(".")[0] in FORBIDDEN_MODULES | {"builtins"}]
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in (
                FORBIDDEN_MODULES | {"builtins"}):
            problems.append(f"line {node.lineno}: imports from {node.module}")
    assert not problems, problems


def _module_level_mutables(tree: ast.Module) -> dict[str, int]:
    """Names bound at module level to a list, dict or set (a display, a comprehension or a
    call such as dict()), with their line."""
    found = {}
    for stmt in tree.body:
        targets, value = [], None
        if isinstance(stmt, ast.Assign):
            targets, value = stmt.targets, stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            targets, value = [stmt.target], stmt.value
        mutable = isinstance(value, ast.List | ast.Dict | ast.Set | ast.ListComp | ast.DictComp
                             | ast.SetComp) or (
            isinstance(value, ast.Call) and _called_name(value) in MUTABLE_MAKERS)
        if mutable:
            found.update({t.id: stmt.lineno for t in targets if isinstance(t, ast.Name)})
    return found


def _mutations_of(tree: ast.Module, names: set[str], bare: bool = True
                  ) -> list[tuple[str, str]]:
    """(name, where) for each place one of `names` (or `anything.name`; with `bare=False` only
    the latter, as another module writes it) is assigned into or mutated."""

    def named(node) -> str | None:
        if bare and isinstance(node, ast.Name) and node.id in names:
            return node.id
        if isinstance(node, ast.Attribute) and node.attr in names:
            return node.attr
        return None

    problems = []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Delete):
            targets = node.targets if isinstance(node, ast.Assign | ast.Delete) else [node.target]
        for target in targets:
            if isinstance(target, ast.Subscript | ast.Attribute) and named(target.value):
                name = named(target.value)
                problems.append((name, f"line {node.lineno}: assigns into {name}"))
            if isinstance(node, ast.AugAssign) and named(target):
                problems.append((named(target), f"line {node.lineno}: changes {named(target)}"))
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in MUTATORS and named(node.func.value)):
            name = named(node.func.value)
            problems.append((name, f"line {node.lineno}: {name}.{node.func.attr}()"))
    return problems


@pytest.mark.parametrize("path", APP_FILES, ids=_ids(APP_FILES))
def test_no_app_module_keeps_mutable_state(path):
    tree = _tree(path)
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Global | ast.Nonlocal):
            problems.append(f"line {node.lineno}: {type(node).__name__.lower()} "
                            + ", ".join(node.names))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                name = target.attr if isinstance(target, ast.Attribute) else getattr(
                    target, "id", None)
                if name in CACHE_DECORATORS:
                    problems.append(f"line {node.lineno}: {node.name} keeps a cache (@{name})")
    mutables = set(_module_level_mutables(tree))
    problems += [problem for _, problem in _mutations_of(tree, mutables)]
    for other in APP_FILES:  # a module's constant must not be changed from anywhere else either
        problems += [f"{other.name}: {problem}" for name, problem in _attribute_writes(other)
                     if name in mutables]
    assert not problems, problems


@functools.cache
def _attribute_writes(path: Path) -> tuple[tuple[str, str], ...]:
    """Every `something.name` the module assigns into or mutates: (name, where)."""
    tree = _tree(path)
    names = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    return tuple(_mutations_of(tree, names, bare=False))


def test_the_rules_catch_what_they_are_meant_to_catch():
    tree = ast.parse("SEEN = []\ndef f(x):\n    SEEN.append(x)\n    CACHE[x] = 1\nCACHE = {}\n")
    assert _module_level_mutables(tree) == {"SEEN": 1, "CACHE": 5}
    assert [p for _, p in _mutations_of(tree, {"SEEN", "CACHE"})] == [
        "line 4: assigns into CACHE", "line 3: SEEN.append()"]


PAGE_FILES = sorted((ROOT / "pages").rglob("*.py")) + [ROOT / "streamlit_app.py",
                                                         ROOT / "navigation.py"]
MODEL_FILES = sorted((ROOT / "playground").rglob("*.py"))
ENGINE_FILES = sorted((ROOT / "autograd").rglob("*.py"))


def _imported_roots(tree: ast.Module, top_level_only: bool = False) -> dict[str, int]:
    """The top-level package of every absolute import (first line it appears on); with
    `top_level_only`, those outside function bodies only."""
    nodes = ast.walk(tree)
    if top_level_only:
        nodes = [n for stmt in tree.body if not isinstance(stmt, ast.FunctionDef | ast.ClassDef)
                 for n in ast.walk(stmt)]
        nodes += [n for cls in tree.body if isinstance(cls, ast.ClassDef) for stmt in cls.body
                  if not isinstance(stmt, ast.FunctionDef) for n in ast.walk(stmt)]
    roots = {}
    for node in nodes:
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        for name in names:
            roots.setdefault(name.split(".")[0], node.lineno)
    return roots


@pytest.mark.parametrize("path", PAGE_FILES, ids=_ids(PAGE_FILES))
def test_pages_never_import_the_engine(path):
    roots = _imported_roots(_tree(path))
    assert "autograd" not in roots, (f"line {roots.get('autograd')}: a page imports autograd; "
                                     "take what it needs from playground")


@pytest.mark.parametrize("path", MODEL_FILES, ids=_ids(MODEL_FILES))
def test_the_model_never_imports_streamlit(path):
    roots = _imported_roots(_tree(path))
    assert "streamlit" not in roots, f"line {roots.get('streamlit')}: playground imports Streamlit"


@pytest.mark.parametrize("path", ENGINE_FILES, ids=_ids(ENGINE_FILES))
def test_the_engine_imports_numpy_and_the_standard_library_only(path):
    allowed = set(sys.stdlib_module_names) | {"numpy", "autograd"}
    outside = {root: line for root, line in _imported_roots(_tree(path), True).items()
               if root not in allowed}
    assert not outside, f"top-level imports beyond NumPy and the standard library: {outside}"
