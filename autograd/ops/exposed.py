"""How an op becomes ``autograd.<name>(x, ...)`` and ``x.<name>(...)``: one line above its class.

    @exposed("exp")
    class Exp(Function):
        def forward(self, a): ...

The function is made from ``forward``'s signature: parameters without defaults are the tensor
operands, parameters with defaults are the op's attributes (``Sum.forward(self, a, axis=None,
keepdims=False)`` gives ``sum(x, axis=None, keepdims=False)``). An op that needs more than
``apply`` (``pow`` picks one of two Functions, ``reshape`` takes ``*shape``) puts the decorator on
its hand-written function instead. ``autograd.ops`` collects everything marked here, so the class
and its decorator are the only places an op is written; ``help(ag.exp)``, ``inspect.signature``
and a notebook's tab completion see the made functions like written ones.

PyTorch's keyword spellings ``dim=`` and ``keepdim=`` are accepted wherever ``axis=`` and
``keepdims=`` are, in made and hand-written functions alike.
"""

import functools
import inspect

from ..function import _record

PYTORCH_KEYWORDS = {"dim": "axis", "keepdim": "keepdims"}


def exposed(name, method=True):
    """Mark a Function class or a function as the public ``autograd.<name>`` (and, with
    ``method``, the Tensor method ``x.<name>``)."""

    def mark(target):
        target.exposed_as = (name, method)
        return target

    return mark


def public_function(target):
    """The public function for a marked Function class, or the marked function itself."""
    name, _ = target.exposed_as
    if not isinstance(target, type):
        return _with_pytorch_keywords(target, name)
    return _from_forward(target, name)


def _with_pytorch_keywords(fn, name):
    """A hand-written op whose parameters say axis or keepdims, taking dim= and keepdim= too."""
    parameters = inspect.signature(fn).parameters
    renames = {torch_name: ours for torch_name, ours in PYTORCH_KEYWORDS.items()
               if ours in parameters and torch_name not in parameters}
    if not renames:
        return fn

    @functools.wraps(fn)
    def function(*args, **kwargs):
        for torch_name, ours in renames.items():
            if torch_name in kwargs:
                if ours in kwargs:
                    raise TypeError(f"{name}() got {ours!r} twice ({torch_name} is PyTorch's "
                                    f"name for {ours}): pass it once")
                kwargs[ours] = kwargs.pop(torch_name)
        return fn(*args, **kwargs)

    return function


def _from_forward(cls, name):
    parameters = list(inspect.signature(cls.forward).parameters.values())[1:]
    operands = [p for p in parameters if p.default is p.empty and p.kind is not p.KEYWORD_ONLY]
    attributes = [p for p in parameters if p not in operands]
    count = len(operands)
    names = [p.name for p in attributes]

    def function(*args, **kwargs):
        if not kwargs and len(args) == count:
            return _record(cls(), args, None)
        if len(args) < count:
            missing = ", ".join(p.name for p in operands[len(args):])
            raise TypeError(f"{name}() is missing its operand(s) {missing}: "
                            f"{name}{function.__signature__}")
        if len(args) > count + len(names):
            raise TypeError(f"{name}() takes {count + len(names)} positional arguments but "
                            f"{len(args)} were given: {name}{function.__signature__}")
        attrs = dict(zip(names, args[count:]))
        for key, value in kwargs.items():
            key = PYTORCH_KEYWORDS.get(key, key)
            if key not in names:
                raise TypeError(f"{name}() got an unexpected keyword argument {key!r}; its "
                                f"arguments are {name}{function.__signature__}")
            if key in attrs:
                raise TypeError(f"{name}() got {key!r} twice (dim is PyTorch's name for axis, "
                                "keepdim for keepdims): pass it once")
            attrs[key] = value
        return _record(cls(), args[:count], attrs)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = cls.__doc__
    function.__module__ = "autograd"
    function.__signature__ = inspect.Signature(
        [p.replace(kind=p.POSITIONAL_OR_KEYWORD) for p in operands + attributes])
    function.function_class = cls
    return function
