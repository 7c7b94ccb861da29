"""The type stubs ``autograd/ops/__init__.pyi`` and ``autograd/tensor.pyi``: every op's function
and Function class, with its signature and the first sentence of its docstring, and every Tensor
method (an op's naming its function), where an editor, a type checker and a reader find them.

The ops attach their functions and methods when ``autograd.ops`` is imported (see ``exposed.py``),
which no static tool sees; the stubs say the same thing statically. Write them again after adding
an op with ``python -m autograd.ops.stubs``; ``tests/playground/test_op_table.py`` fails, naming
this command, when they are out of date.
"""

import importlib
import inspect
import sys
import textwrap
import types
from pathlib import Path

from . import CLASSES, FAMILIES, PUBLIC

tensor = importlib.import_module("..tensor", __package__)  # the module: autograd.tensor is
# also the function ag.tensor

HEADER = "# Written by `python -m autograd.ops.stubs`: do not edit by hand.\n"
PATHS = {"ops": Path(__file__).with_name("__init__.pyi"),
         "tensor": Path(tensor.__file__).with_suffix(".pyi")}


class _Elided:
    """A default value as a stub writes it: ``...``."""

    def __repr__(self):
        return "..."


def _signature(fn):
    """``(a, axis=..., *, keepdims=...)``: fn's parameters, defaults elided, no annotations."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return "(*args, **kwargs)"
    parameters = [p.replace(annotation=p.empty,
                            default=p.empty if p.default is p.empty else _Elided())
                  for p in signature.parameters.values()]
    return str(signature.replace(parameters=parameters, return_annotation=signature.empty))


def _doc(obj, indent):
    """The first sentence of obj's own docstring, as a stub body's docstring (or " ...")."""
    paragraph = inspect.cleandoc(obj.__doc__ or "").split("\n\n", 1)[0].replace("\n", " ")
    sentence = paragraph.split(". ", 1)[0].rstrip(".") + "."
    if sentence == "." or "\\" in sentence or '"' in sentence:
        return " ..."
    inner = indent + "    "
    text = textwrap.fill(f'"""{sentence}"""', width=100, initial_indent=inner,
                         subsequent_indent=inner)
    return f"\n{text}"


def _function(name, fn, indent=""):
    return f"{indent}def {name}{_signature(fn)}:{_doc(fn, indent)}\n"


def _member(name, value):
    """One member of a class body, indented: an op's method names its function in the ops' stub."""
    if name in PUBLIC and PUBLIC[name] is value:
        return f"    {name} = _ops.{name}\n"
    if isinstance(value, property):
        text = f"    @property\n{_function(name, value.fget, '    ')}"
        if value.fset is not None:
            text += f"    @{name}.setter\n    def {name}(self, value): ...\n"
        return text
    if isinstance(value, (classmethod, staticmethod)):
        kind = type(value).__name__
        return f"    @{kind}\n{_function(name, value.__func__, '    ')}"
    if isinstance(value, types.FunctionType):
        return _function(name, value, "    ")
    return f"    {name}: Any\n"


def _class(cls):
    skip = {"__dict__", "__weakref__", "__module__", "__doc__", "__qualname__", "__slots__",
            "__firstlineno__", "__static_attributes__"}
    body = "".join(_member(name, value) for name, value in vars(cls).items() if name not in skip)
    bases = ", ".join(base.__name__ for base in cls.__bases__ if base is not object)
    doc = _doc(cls, "")
    if doc == " ..." and body:
        doc = ""
    return f"class {cls.__name__}{f'({bases})' if bases else ''}:{doc}\n{body}"


def tensor_stub():
    """The stub of ``autograd/tensor.py``: its classes and functions, Tensor's op methods too."""
    parts = [HEADER, "from typing import Any\n\nfrom . import ops as _ops\n"]
    for name, value in vars(tensor).items():
        if getattr(value, "__module__", None) != tensor.__name__:
            continue
        if isinstance(value, type):
            parts.append("\n\n" + _class(value))
        elif isinstance(value, types.FunctionType):
            parts.append("\n\n" + _function(name, value))
    return "".join(parts)


def ops_stub():
    """The stub of ``autograd/ops/__init__.py``: every family, Function class and op function."""
    module = sys.modules[__package__]
    lines = [HEADER, "from typing import Any\n\n",
             "from ..function import Function as Function\n",
             "from ..tensor import Tensor as Tensor\n"]
    lines += [f"from . import {family.__name__.rsplit('.', 1)[1]} as "
              f"{family.__name__.rsplit('.', 1)[1]}\n" for family in FAMILIES]
    lines += [f"from .{cls.__module__.rsplit('.', 1)[1]} import {name} as {name}\n"
              for name, cls in CLASSES.items()]
    lines += [f"from .{value.__module__.rsplit('.', 1)[1]} import {name} as {name}\n"
              for name, value in vars(module).items()
              if isinstance(value, types.FunctionType) and name not in PUBLIC
              and value.__module__.startswith(__package__ + ".")]
    lines += ["\nFAMILIES: tuple[Any, ...]\nCLASSES: dict[str, type[Function]]\n",
              "PUBLIC: dict[str, Any]\nMETHODS: tuple[str, ...]\n",
              f"__all__ = {sorted(PUBLIC)!r}\n\n"]
    lines += ["\n" + _function(name, fn) for name, fn in PUBLIC.items()]
    return "".join(lines)


def current():
    """Path -> the text it should hold."""
    return {PATHS["ops"]: ops_stub(), PATHS["tensor"]: tensor_stub()}


if __name__ == "__main__":
    for path, text in current().items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
