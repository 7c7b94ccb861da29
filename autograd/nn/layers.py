"""Layers: Linear, Embedding, Dropout, Flatten, Identity, the activation modules, the
containers (Sequential, ModuleList, ModuleDict) and MLP.

Every layer starts from PyTorch's default initialisation (``nn.init``), drawn from the engine's
generator, so ``autograd.manual_seed`` makes a model reproducible; ``dtype=`` (float64 by
default) sets the parameters' dtype.
"""

import numpy as np

from .. import creation
from ..ops import (
    elu,
    gelu,
    hardswish,
    hardtanh,
    leaky_relu,
    linear,
    log_softmax,
    logsigmoid,
    mish,
    prelu,
    relu6,
    silu,
    softmax,
    softplus,
    stack,
    where,
)
from ..tensor import Tensor
from . import init
from .module import Module


class Linear(Module):
    """``y = x @ weight.T + bias`` with ``weight`` of shape (out_features, in_features).

    Weights and bias start uniform in ``±1/sqrt(in_features)`` (PyTorch's default).
    """

    def __init__(self, in_features, out_features, bias=True, dtype=np.float64):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = init.parameter((out_features, in_features), dtype, "weight")
        self.bias = init.parameter((out_features,), dtype, "bias") if bias else None
        init.default_weight_and_bias(self.weight, self.bias)

    def forward(self, x):
        return linear(x, self.weight, self.bias)

    def extra_repr(self):
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, "
            f"bias={self.bias is not None}"
        )


class Identity(Module):
    """Returns its input: a placeholder where a layer is optional."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, x):
        return x


class Flatten(Module):
    """Merges axes ``start_dim`` to ``end_dim`` (by default all but the batch axis)."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, x):
        return x.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Splits axis ``dim`` into ``unflattened_size``."""

    def __init__(self, dim, unflattened_size):
        super().__init__()
        self.dim, self.unflattened_size = dim, tuple(unflattened_size)

    def forward(self, x):
        dim = self.dim % x.ndim
        return x.reshape(x.shape[:dim] + self.unflattened_size + x.shape[dim + 1:])


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability ``p`` and scale the rest by 1 / (1 - p), so the
    expected value is unchanged; the identity when not ``training``. The mask is drawn from
    the engine's generator (``autograd.manual_seed``)."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout: probability has to be between 0 and 1, got p={p}")
    if not training or p == 0.0:
        return input
    if p == 1.0:
        return input * np.zeros((), input.dtype)
    keep = creation._rng().random(input.shape) >= p
    return input * (keep * (1.0 / (1.0 - p))).astype(input.dtype)


def _channel_dropout(name, input, p, training, ranks):
    """Whole channels zeroed with probability ``p`` (the rest scaled by 1 / (1 - p)): one draw
    per sample and channel of an (N, C, *spatial) input, or per channel when unbatched."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"{name}: probability has to be between 0 and 1, got p={p}")
    if input.ndim not in ranks:
        raise ValueError(f"{name}: expected a {ranks[0]}-D or {ranks[1]}-D input, got shape "
                         f"{input.shape}")
    if not training or p == 0.0:
        return input
    spatial = ranks[1] - 2
    mask_shape = input.shape[:input.ndim - spatial] + (1,) * spatial
    keep = creation._rng().random(mask_shape) >= p
    scale = 0.0 if p == 1.0 else 1.0 / (1.0 - p)
    return input * (keep * scale).astype(input.dtype)


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Channel dropout of (N, C, L) or (C, L): whole channels zeroed."""
    return _channel_dropout("dropout1d", input, p, training, (2, 3))


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Channel dropout of (N, C, H, W) or (C, H, W): whole feature maps zeroed."""
    return _channel_dropout("dropout2d", input, p, training, (3, 4))


class Dropout(Module):
    """Randomly zeroes elements with probability ``p`` in training mode (scaling the rest by
    1 / (1 - p)); does nothing after ``.eval()``."""

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"Dropout: probability has to be between 0 and 1, got p={p}")
        self.p = p

    def forward(self, x):
        return dropout(x, self.p, self.training)

    def extra_repr(self):
        return f"p={self.p}"


def embedding(input, weight, padding_idx=None, max_norm=None):
    """Rows of ``weight`` (num_embeddings, dim) picked by the integer ``input``: the output has
    shape ``input.shape + (dim,)``. Rows picked at ``padding_idx`` get no gradient."""
    if max_norm is not None:
        raise NotImplementedError("embedding: max_norm is not supported; renormalise the weight "
                                  "yourself under no_grad if you need it")
    indices = input.data if isinstance(input, Tensor) else np.asarray(input)
    if indices.dtype.kind not in "iu":
        raise TypeError(f"embedding: indices must be integers, got dtype {indices.dtype}; "
                        "convert them with .long()")
    rows = weight.shape[0]
    if indices.size and (indices.min() < 0 or indices.max() >= rows):
        bad = indices[(indices < 0) | (indices >= rows)].flat[0]
        raise IndexError(f"embedding: index {bad} is out of range for {rows} embeddings; "
                         f"indices run from 0 to {rows - 1}")
    out = weight[indices]
    if padding_idx is not None:
        at_padding = (indices == padding_idx % rows)[..., None]
        if at_padding.any():
            out = where(at_padding, weight.data[indices], out)
    return out


def embedding_bag(input, weight, offsets=None, mode="mean", padding_idx=None):
    """The sum, mean or max of each bag of rows of ``weight``: bags are the rows of a 2-D
    ``input``, or the pieces of a 1-D one starting at ``offsets``; rows at ``padding_idx`` are
    left out (an empty bag gives zeros)."""
    if mode not in ("sum", "mean", "max"):
        raise ValueError(f"embedding_bag: mode must be 'sum', 'mean' or 'max', got {mode!r}")
    indices = input.data if isinstance(input, Tensor) else np.asarray(input)
    if indices.ndim == 2:
        if offsets is not None:
            raise ValueError("embedding_bag: offsets has to be None for a 2-D input (each row "
                             "is a bag)")
        bags = list(indices)
    else:
        starts = np.asarray(offsets.data if isinstance(offsets, Tensor) else offsets)
        bags = np.split(indices, starts[1:])
    rows = []
    for bag in bags:
        if padding_idx is not None:
            bag = bag[bag != padding_idx % weight.shape[0]]
        if not len(bag):
            rows.append(creation.zeros(weight.shape[1], dtype=weight.dtype))
            continue
        picked = embedding(bag, weight)
        rows.append(picked.sum(0) if mode == "sum" else picked.mean(0) if mode == "mean"
                    else picked.max(0)[0])
    return stack(rows, 0)


class Embedding(Module):
    """A lookup table of ``num_embeddings`` vectors of ``embedding_dim`` (``weight``, drawn from
    N(0, 1)); ``padding_idx``'s row starts at zeros and is never updated."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None,
                 dtype=np.float64):
        super().__init__()
        if padding_idx is not None and not -num_embeddings <= padding_idx < num_embeddings:
            raise ValueError(f"Embedding: padding_idx {padding_idx} must be within "
                             f"num_embeddings ({num_embeddings})")
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.padding_idx = None if padding_idx is None else padding_idx % num_embeddings
        self.max_norm = max_norm
        self.weight = init.parameter((num_embeddings, embedding_dim), dtype, "weight")
        init.normal_(self.weight)
        if self.padding_idx is not None:
            self.weight.data[self.padding_idx] = 0

    def forward(self, indices):
        return embedding(indices, self.weight, self.padding_idx, self.max_norm)

    def extra_repr(self):
        extra = "" if self.padding_idx is None else f", padding_idx={self.padding_idx}"
        return f"{self.num_embeddings}, {self.embedding_dim}{extra}"


# --- activations -----------------------------------------------------------------------------


class Tanh(Module):
    """Elementwise tanh, squashing values into (-1, 1)."""

    def forward(self, x):
        return x.tanh()


class ReLU(Module):
    """Elementwise max(x, 0); ``inplace=True`` changes the input itself, as PyTorch's."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, x):
        return x.relu_() if self.inplace else x.relu()


class Sigmoid(Module):
    """Elementwise 1 / (1 + exp(-x)), squashing values into (0, 1)."""

    def forward(self, x):
        return x.sigmoid()


class GELU(Module):
    """x·Φ(x) (``approximate="tanh"``: the tanh approximation), as in GPT-2's MLP."""

    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, x):
        return gelu(x, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class SiLU(Module):
    """x·sigmoid(x) (also called swish)."""

    def forward(self, x):
        return silu(x)


class Mish(Module):
    def forward(self, x):
        return mish(x)


class ReLU6(Module):
    def forward(self, x):
        return relu6(x)


class LeakyReLU(Module):
    """x where x > 0, else negative_slope·x."""

    def __init__(self, negative_slope=0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x):
        return leaky_relu(x, self.negative_slope)


class ELU(Module):
    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = alpha

    def forward(self, x):
        return elu(x, self.alpha)


class Softplus(Module):
    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, x):
        return softplus(x, self.beta, self.threshold)


class Hardtanh(Module):
    def __init__(self, min_val=-1.0, max_val=1.0):
        super().__init__()
        self.min_val, self.max_val = min_val, max_val

    def forward(self, x):
        return hardtanh(x, self.min_val, self.max_val)


class Hardswish(Module):
    """x · relu6(x + 3) / 6: SiLU's shape from pieces of lines (MobileNetV3)."""

    def forward(self, x):
        return hardswish(x)


class PReLU(Module):
    """x where x > 0, else a·x with ``a`` learned (``weight``: one for all channels, or one per
    channel on axis 1), starting at ``init``."""

    def __init__(self, num_parameters=1, init=0.25, dtype=np.float64):
        super().__init__()
        self.num_parameters = num_parameters
        self.weight = Tensor(np.full(num_parameters, init, dtype), requires_grad=True)

    def forward(self, x):
        return prelu(x, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


class LogSigmoid(Module):
    """log(sigmoid(x)), stable for any x (``F.logsigmoid``)."""


    def forward(self, x):
        return logsigmoid(x)


def _softmax_dim(dim, ndim):
    """PyTorch's implicit dim for softmax without one: 0 for 0-, 1- and 3-D input, else 1."""
    if dim is not None:
        return dim
    return 0 if ndim in (0, 1, 3) else 1


class Softmax(Module):
    """softmax along ``dim``: each slice becomes probabilities that sum to 1."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return softmax(x, _softmax_dim(self.dim, x.ndim))

    def extra_repr(self):
        return f"dim={self.dim}"


class LogSoftmax(Softmax):
    """log(softmax) along ``dim``, computed stably."""

    def forward(self, x):
        return log_softmax(x, _softmax_dim(self.dim, x.ndim))


# --- containers ------------------------------------------------------------------------------


def _check_module(container, position, module):
    if not isinstance(module, Module):
        raise TypeError(
            f"{container} takes Modules, but {position} is a {type(module).__name__}; wrap "
            "functions in a Module with a forward method")


class Sequential(Module):
    """Runs its modules one after another; they are named "0", "1", … as in PyTorch, or by the
    keys of one dict passed instead (``Sequential(OrderedDict(conv=..., act=...))``)."""

    def __init__(self, *modules):
        super().__init__()
        named = (modules[0].items() if len(modules) == 1 and isinstance(modules[0], dict)
                 else ((str(position), module) for position, module in enumerate(modules)))
        for name, module in named:
            _check_module("Sequential", f"argument {name}", module)
            self._modules[name] = module

    def forward(self, x):
        for module in self._modules.values():
            x = module(x)
        return x

    def append(self, module):
        _check_module("Sequential", "the appended value", module)
        self._modules[str(len(self._modules))] = module
        return self

    def __len__(self):
        return len(self._modules)

    def __getitem__(self, position):
        picked = list(self._modules.values())[position]
        return Sequential(*picked) if isinstance(position, slice) else picked

    def __iter__(self):
        return iter(self._modules.values())


class ModuleList(Module):
    """A list of modules whose parameters belong to the owner (a plain list's would not)."""

    def __init__(self, modules=()):
        super().__init__()
        self.extend(modules)

    def _items(self):
        return list(self._modules.values())

    def _renumber(self, modules):
        self._modules.clear()
        for position, module in enumerate(modules):
            self._modules[str(position)] = module

    def append(self, module):
        _check_module("ModuleList", "the appended value", module)
        self._modules[str(len(self._modules))] = module
        return self

    def extend(self, modules):
        for module in modules:
            self.append(module)
        return self

    def insert(self, index, module):
        _check_module("ModuleList", "the inserted value", module)
        items = self._items()
        items.insert(index, module)
        self._renumber(items)

    def __getitem__(self, index):
        items = self._items()
        return ModuleList(items[index]) if isinstance(index, slice) else items[index]

    def __setitem__(self, index, module):
        _check_module("ModuleList", "the assigned value", module)
        items = self._items()
        items[index] = module
        self._renumber(items)

    def __delitem__(self, index):
        items = self._items()
        del items[index]
        self._renumber(items)

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._items())

    def forward(self, *args, **kwargs):
        raise NotImplementedError("a ModuleList has no forward: loop over its modules in your "
                                  "own module's forward")


class ModuleDict(Module):
    """A dict of modules (insertion-ordered) whose parameters belong to the owner."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        _check_module("ModuleDict", f"the value for {key!r}", module)
        self.add_module(str(key), module)

    def __delitem__(self, key):
        delattr(self, key)

    def __contains__(self, key):
        return key in self._modules

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def keys(self):
        return self._modules.keys()

    def values(self):
        return self._modules.values()

    def items(self):
        return self._modules.items()

    def update(self, modules):
        pairs = modules.items() if hasattr(modules, "items") else modules
        for key, module in pairs:
            self[key] = module

    def pop(self, key):
        module = self._modules[key]
        del self[key]
        return module

    def forward(self, *args, **kwargs):
        raise NotImplementedError("a ModuleDict has no forward: call its modules in your own "
                                  "module's forward")


_ACTIVATIONS = {"tanh": Tanh, "relu": ReLU, "sigmoid": Sigmoid}


class MLP(Sequential):
    """A multi-layer perceptron: ``MLP([2, 16, 16, 1])`` is Linear(2, 16), act, Linear(16, 16),
    act, Linear(16, 1), with no activation after the last layer (add one, or use a loss that
    takes logits)."""

    def __init__(self, sizes, activation="tanh", dtype=np.float64):
        sizes = list(sizes)
        if len(sizes) < 2:
            raise ValueError(
                f"MLP needs at least two sizes (inputs and outputs), got {sizes}; "
                "e.g. MLP([2, 16, 1])"
            )
        if activation not in _ACTIVATIONS:
            raise ValueError(
                f"unknown activation {activation!r}; choose one of {sorted(_ACTIVATIONS)}"
            )
        layers = []
        for n_in, n_out in zip(sizes[:-1], sizes[1:], strict=True):
            layers.append(Linear(n_in, n_out, dtype=dtype))
            layers.append(_ACTIVATIONS[activation]())
        super().__init__(*layers[:-1])
        self.sizes = sizes
