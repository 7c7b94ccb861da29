"""What a registry entry is (OpInfo, Attr), and the builders that families of ops share."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass

import autograd as ag

from .. import torch_code
from ..torch_code import TorchCode
from . import rules
from .rules import ShapeRule, WorkRule


@dataclass(frozen=True)
class Attr:
    """One attribute of an op; ``type`` is a key of ``ATTR_TYPES``. ``suggested``, when not
    None, is the value a form offers first, for an attribute whose default alone would not make
    a useful node (clip's bounds)."""

    name: str
    type: str
    default: object = None
    required: bool = False
    suggested: object = None


@dataclass(frozen=True)
class OpInfo:
    """One op, its settings given by keyword after its name.

    ``arity`` is its operand count, or None for "one or more" (stack, concatenate).
    ``symbol`` is its operator in the expression language ("+", "@", unary "-"), if it has one;
    ``example`` is a call a student can copy; ``apply(*tensors, **attrs)`` runs it with the engine;
    ``torch`` is how the PyTorch export writes it; ``sentence`` says in plain words what the
    local derivative does, for the Gradients and Step through pages.
    ``shape`` is its shape rule (``rules.ShapeRule``), with which ``playground.budget`` knows
    every node's shape and cost before computing anything (an entry without one is refused there);
    ``work`` adds the work units beyond one per element, for ops that do more (``rules.WorkRule``).
    ``needs_one_of`` names attributes of which at least one must be given (clip: min or max).
    ``symbols`` are the operands' names in ``derivative`` where they are not x (one operand) or
    a, b (two), for playground.formulas to put the node's own names in their place.
    """

    name: str
    _: KW_ONLY
    arity: int | None
    attrs: tuple[Attr, ...] = ()
    description: str
    derivative: str
    apply: Callable
    example: str
    torch: TorchCode
    shape: ShapeRule | None = None
    work: WorkRule | None = None
    symbol: str | None = None
    needs_one_of: tuple[str, ...] = ()
    sentence: str = ""
    symbols: tuple[str, ...] = ()

    def attr(self, name: str) -> Attr | None:
        """The attribute called ``name``, or None."""
        return next((a for a in self.attrs if a.name == name), None)

    def arity_text(self) -> str:
        """The operand count in words, for messages: "2 operands", "one or more operands"."""
        if self.arity is None:
            return "one or more operands"
        return "1 operand" if self.arity == 1 else f"{self.arity} operands"


def refusing(engine):
    """``engine`` with PyTorch's RuntimeError for operands it refuses raised as ValueError, the
    error the playground reports as a refusal with the engine's message."""

    def apply(*args, **kwargs):
        try:
            return engine(*args, **kwargs)
        except RuntimeError as error:
            raise ValueError(str(error)) from None

    apply.__name__ = apply.__qualname__ = engine.__name__
    apply.__doc__ = engine.__doc__
    apply.__signature__ = inspect.signature(engine)
    return apply


AXIS = Attr("axis", "axis", None)
KEEPDIMS = Attr("keepdims", "bool", False)
LAST = Attr("axis", "dim", -1)


def binary(name, *, symbol=None, description, derivative, torch, sentence, symbols=(),
           shape=rules.broadcast, work=None):
    """An op of two operands, applied as ``autograd.<name>``: elementwise with broadcasting unless
    ``shape`` says otherwise."""
    example = f"a {symbol} b" if symbol else f"{name}(a, b)"
    return OpInfo(name, arity=2, description=description, derivative=derivative,
                  apply=getattr(ag, name), example=example, torch=torch, shape=shape, work=work,
                  symbol=symbol, sentence=sentence, symbols=symbols)


def unary(name, *, description, derivative, sentence):
    """An elementwise op of one operand: ``autograd.<name>``, written ``torch.<name>``."""
    return OpInfo(name, arity=1, description=description, derivative=derivative,
                  apply=getattr(ag, name), example=f"{name}(x)",
                  torch=torch_code.call(f"torch.{name}"), shape=rules.same, sentence=sentence)


def reduction(name, *, description, derivative, torch_name, sentence):
    """A reduction over all axes or the given ones: ``autograd.<name>(x, axis=, keepdims=)``,
    with NumPy's keywords, so max and min give their values (their ``dim=`` gives PyTorch's
    pair of values and indices)."""
    engine = getattr(ag, name)

    def apply(x, axis=None, keepdims=False):
        return engine(x, axis=axis, keepdims=keepdims)

    apply.__name__ = apply.__qualname__ = name
    apply.__doc__ = engine.__doc__
    return OpInfo(name, arity=1, attrs=(AXIS, KEEPDIMS), description=description,
                  derivative=derivative, apply=apply, example=f"{name}(x, axis=0)",
                  torch=torch_code.reduction(torch_name), shape=rules.reduced, sentence=sentence)


def shape_op(name, *, attrs=(), description, apply, example, torch, shape, sentence):
    """A shape op: it moves elements, so its gradient moves them back."""
    return OpInfo(name, arity=1, attrs=attrs, description=description,
                  derivative=r"\bar{x} = \operatorname{reshape}(\bar{y},\ "
                             r"\operatorname{shape}(x))",
                  apply=apply, example=example, torch=torch, shape=shape, sentence=sentence)
