"""Module: the base class of layers and models, as in PyTorch.

Assigning a Tensor that requires grad as an attribute registers it as a parameter (PyTorch's
``nn.Parameter``; a constant Tensor stays a plain attribute), and assigning a Module registers it
as a sub-module, both in the order they were assigned, so ``parameters()`` is stable. State
that is not learned (BatchNorm's running statistics) is a buffer: ``register_buffer``.
``state_dict()`` names every parameter and buffer as PyTorch does (``"0.weight"``,
``"bn.running_mean"``), and ``load_state_dict`` takes those names with Tensors, NumPy arrays or
PyTorch tensors, so a PyTorch model's weights load into the same model written here.
"""

from typing import NamedTuple

import numpy as np

from ..grad_mode import no_grad
from ..tensor import Tensor


class IncompatibleKeys(NamedTuple):
    """What ``load_state_dict`` did not match: keys the model has but the dict lacks, and keys
    the dict has but the model lacks (PyTorch's ``_IncompatibleKeys``)."""

    missing_keys: list
    unexpected_keys: list


def Parameter(data, requires_grad=True):  # noqa: N802 - PyTorch's name
    """A leaf Tensor that requires grad, as ``nn.Parameter(torch.randn(3))``: assign it to a
    Module attribute and it is one of the module's parameters."""
    values = data.data if isinstance(data, Tensor) else data
    return Tensor(values, requires_grad=requires_grad)


class Module:
    """Holds parameters, buffers and sub-modules; calling it runs ``forward``."""

    def __init__(self):
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_non_persistent", set())
        object.__setattr__(self, "_modules", {})
        object.__setattr__(self, "training", True)

    def forward(self, *args, **kwargs):
        raise NotImplementedError(
            f"{type(self).__name__} has no forward method: define forward(self, x) to say what "
            "the module computes"
        )

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def __setattr__(self, name, value):
        if "_parameters" not in self.__dict__:
            raise AttributeError(
                f"cannot assign {name!r} before Module.__init__() ran: call super().__init__() "
                f"at the start of {type(self).__name__}.__init__"
            )
        if name in self._buffers and (value is None or isinstance(value, Tensor)):
            self._buffers[name] = value  # a buffer stays a buffer, as in PyTorch
            object.__setattr__(self, name, value)
            return
        was_parameter = self._parameters.pop(name, None) is not None
        self._modules.pop(name, None)
        self._buffers.pop(name, None)
        if isinstance(value, Tensor) and (value.requires_grad or was_parameter):
            self._parameters[name] = value  # a constant Tensor is a plain attribute, as in PyTorch
        elif isinstance(value, Module):
            self._modules[name] = value
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        self._parameters.pop(name, None)
        self._modules.pop(name, None)
        self._buffers.pop(name, None)
        object.__delattr__(self, name)

    # --- registration --------------------------------------------------------------------------
    def register_buffer(self, name, tensor, persistent=True):
        """Keep ``tensor`` as state that is not a parameter (an optimizer never sees it) but is
        saved in ``state_dict()`` unless ``persistent=False``, e.g. running statistics."""
        if tensor is not None and not isinstance(tensor, Tensor):
            tensor = Tensor(np.asarray(tensor))
        self.__setattr__(name, None)  # drop any parameter or module of that name
        self._buffers[name] = tensor
        if not persistent:
            self._non_persistent.add(name)
        object.__setattr__(self, name, tensor)

    def register_parameter(self, name, param):
        """Make ``param`` (a Tensor, or None for an absent one such as a bias) a parameter."""
        self.__setattr__(name, param)

    def add_module(self, name, module):
        """Make ``module`` a sub-module called ``name`` (what attribute assignment does)."""
        self.__setattr__(name, module)

    # --- walking the tree ----------------------------------------------------------------------
    def named_modules(self, prefix=""):
        """Yield ``(dotted name, module)`` for this module (name ``prefix``) and every
        sub-module, depth first in registration order; a shared module once."""
        seen = set()
        stack = [(prefix, self)]
        while stack:
            path, module = stack.pop()
            if id(module) in seen:
                continue
            seen.add(id(module))
            yield path, module
            children = [(f"{path}.{name}" if path else name, child)
                        for name, child in module._modules.items() if child is not None]
            stack.extend(reversed(children))

    def modules(self):
        return [module for _, module in self.named_modules()]

    def named_children(self):
        return iter(list(self._modules.items()))

    def children(self):
        return [module for _, module in self._modules.items()]

    def named_parameters(self, prefix="", recurse=True):
        """Yield ``(dotted name, tensor)`` pairs: own parameters first, then each sub-module's.

        A tensor shared by several modules is yielded once, under its first name.
        """
        yield from self._named_members("_parameters", prefix, recurse)

    def parameters(self, recurse=True):
        """Every parameter once, in registration order (what an optimizer takes)."""
        return [tensor for _, tensor in self.named_parameters(recurse=recurse)]

    def named_buffers(self, prefix="", recurse=True):
        """Yield ``(dotted name, tensor)`` for every buffer, as ``named_parameters`` does."""
        yield from self._named_members("_buffers", prefix, recurse)

    def buffers(self, recurse=True):
        return [tensor for _, tensor in self.named_buffers(recurse=recurse)]

    def _named_members(self, kind, prefix, recurse):
        seen = set()
        modules = self.named_modules(prefix) if recurse else [(prefix, self)]
        for path, module in modules:
            for name, tensor in getattr(module, kind).items():
                if tensor is not None and id(tensor) not in seen:
                    seen.add(id(tensor))
                    yield (f"{path}.{name}" if path else name), tensor

    def apply(self, fn):
        """Call ``fn(module)`` on every sub-module, then on this one (e.g. to initialise)."""
        for child in self.children():
            child.apply(fn)
        fn(self)
        return self

    # --- state -----------------------------------------------------------------------------------
    def state_dict(self, prefix="", keep_vars=False):
        """Every parameter and persistent buffer by dotted name, as PyTorch orders them (each
        module's parameters, then its buffers, then its sub-modules'). The values are detached
        Tensors sharing memory with the model (``keep_vars=True``: the tensors themselves);
        ``{k: v.numpy() for k, v in ...items()}`` gives arrays."""
        out = {}
        stack = [(prefix, self)]
        while stack:
            path, module = stack.pop()
            for name, tensor in module._parameters.items():
                if tensor is not None:
                    out[path + name] = tensor if keep_vars else tensor.detach()
            for name, tensor in module._buffers.items():
                if tensor is not None and name not in module._non_persistent:
                    out[path + name] = tensor if keep_vars else tensor.detach()
            children = [(f"{path}{name}.", child) for name, child in module._modules.items()
                        if child is not None]
            stack.extend(reversed(children))
        return out

    def load_state_dict(self, state_dict, strict=True):
        """Copy values into the parameters and buffers of the same names, in place (an
        optimizer holding them sees the new values). Values may be Tensors, NumPy arrays or
        PyTorch tensors; each is cast to the dtype of the tensor it fills. With ``strict`` (the
        default) a missing or unexpected key is an error; else they are returned."""
        own = self.state_dict(keep_vars=True)
        missing = [key for key in own if key not in state_dict]
        unexpected = [key for key in state_dict if key not in own]
        errors = []
        if strict and (missing or unexpected):
            if missing:
                errors.append("missing keys " + ", ".join(map(repr, missing)))
            if unexpected:
                errors.append("unexpected keys " + ", ".join(map(repr, unexpected)))
        values = {}
        for key, target in own.items():
            if key in state_dict:
                value = _as_array(state_dict[key], key)
                if value.shape != target.shape:
                    errors.append(f"size mismatch for {key!r}: the state_dict has shape "
                                  f"{value.shape}, the model {target.shape}")
                values[key] = value
        if errors:
            raise RuntimeError(
                f"load_state_dict for {type(self).__name__}: " + "; ".join(errors) + ". Build "
                "the model with the same layers and sizes as the one that was saved (compare "
                "the keys of model.state_dict()), or pass strict=False to skip missing and "
                "unexpected keys"
            )
        with no_grad():
            for key, value in values.items():
                own[key].data[...] = value
        return IncompatibleKeys(missing, unexpected)

    # --- modes and dtypes ------------------------------------------------------------------------
    def zero_grad(self, set_to_none=True):
        """Forget accumulated gradients: every parameter's ``.grad`` becomes None (or zeros)."""
        for tensor in self.parameters():
            if set_to_none or tensor.grad is None:
                tensor.grad = None
            else:
                tensor.grad.data[...] = 0

    def requires_grad_(self, requires_grad=True):
        """Switch gradient tracking of every parameter on or off (e.g. to freeze a layer)."""
        for tensor in self.parameters():
            tensor.requires_grad_(requires_grad)
        return self

    def train(self, mode=True):
        """Put this module and every sub-module in training mode (or evaluation when False)."""
        for _, module in self.named_modules():
            object.__setattr__(module, "training", mode)
        return self

    def eval(self):
        """Put this module and every sub-module in evaluation mode."""
        return self.train(False)

    def to(self, dtype):
        """Cast every floating-point parameter and buffer to ``dtype`` in place (the same
        Tensors, new arrays), as ``module.to(torch.float32)``; returns the module."""
        dtype = np.dtype(dtype)
        for tensor in self.parameters() + self.buffers():
            if np.issubdtype(tensor.dtype, np.floating):
                tensor.data = tensor.data.astype(dtype)
                if tensor.grad is not None:
                    tensor.grad = None
        return self

    def double(self):
        return self.to(np.float64)

    def float(self):
        return self.to(np.float32)

    def half(self):
        return self.to(np.float16)

    # --- printing --------------------------------------------------------------------------------
    def extra_repr(self):
        """The settings shown between the parentheses of the repr, e.g. sizes."""
        return ""

    def __repr__(self):
        if not self._modules:
            return f"{type(self).__name__}({self.extra_repr()})"
        lines = [f"{type(self).__name__}("]
        if self.extra_repr():
            lines.append("  " + self.extra_repr())
        for name, child in self._modules.items():
            child_text = repr(child).replace("\n", "\n  ")
            lines.append(f"  ({name}): {child_text}")
        lines.append(")")
        return "\n".join(lines)


def _as_array(value, key):
    """A state_dict value as an ndarray: a Tensor's data, a PyTorch tensor's, or the array."""
    if isinstance(value, Tensor):
        return value.data
    if hasattr(value, "detach") and hasattr(value, "cpu"):  # a PyTorch tensor
        return value.detach().cpu().numpy()
    array = np.asarray(value)
    if array.dtype == object:
        raise TypeError(f"load_state_dict: the value for {key!r} is a {type(value).__name__}, "
                        "not an array; pass Tensors, NumPy arrays or numbers")
    return array
