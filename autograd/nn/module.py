"""Module: the base class of layers and models, as in PyTorch.

Assigning a Tensor as an attribute registers it as a parameter, and assigning a Module registers
it as a sub-module, both in the order they were assigned, so ``parameters()`` is stable.
"""

from ..tensor import Tensor


class Module:
    """Holds parameters and sub-modules; calling it runs ``forward``."""

    def __init__(self):
        object.__setattr__(self, "_parameters", {})
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
        self._parameters.pop(name, None)
        self._modules.pop(name, None)
        if isinstance(value, Tensor):
            self._parameters[name] = value
        elif isinstance(value, Module):
            self._modules[name] = value
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        self._parameters.pop(name, None)
        self._modules.pop(name, None)
        object.__delattr__(self, name)

    def named_parameters(self, prefix=""):
        """Yield ``(dotted name, tensor)`` pairs: own parameters first, then each sub-module's.

        A tensor shared by several modules is yielded once, under its first name.
        """
        seen = set()
        stack = [(prefix, self)]
        while stack:
            path, module = stack.pop()
            for name, tensor in module._parameters.items():
                if id(tensor) not in seen:
                    seen.add(id(tensor))
                    yield path + name, tensor
            children = list(module._modules.items())
            stack.extend((f"{path}{name}.", child) for name, child in reversed(children))

    def parameters(self):
        """Every parameter once, in registration order (what an optimizer takes)."""
        return [tensor for _, tensor in self.named_parameters()]

    def zero_grad(self):
        """Forget accumulated gradients: every parameter's ``.grad`` becomes None."""
        for tensor in self.parameters():
            tensor.grad = None

    def train(self, mode=True):
        """Put this module and every sub-module in training mode (or evaluation when False)."""
        stack = [self]
        while stack:
            module = stack.pop()
            object.__setattr__(module, "training", mode)
            stack.extend(module._modules.values())
        return self

    def eval(self):
        """Put this module and every sub-module in evaluation mode."""
        return self.train(False)

    def extra_repr(self):
        """The settings shown between the parentheses of the repr, e.g. sizes."""
        return ""

    def __repr__(self):
        if not self._modules:
            return f"{type(self).__name__}({self.extra_repr()})"
        lines = [f"{type(self).__name__}("]
        for name, child in self._modules.items():
            child_text = repr(child).replace("\n", "\n  ")
            lines.append(f"  ({name}): {child_text}")
        lines.append(")")
        return "\n".join(lines)
