"""Recurrent layers as ``torch.nn`` builds them: RNN, LSTM, GRU and their cells.

Each step is written with the engine's ops (linear, sigmoid, tanh, products), so the gradient
through time can be read in the graph; an LSTM step's gates are one node (``LSTMGates``), as
PyTorch fuses them, which makes it several times faster. Parameter names, shapes, gate order
(LSTM: input, forget, cell, output; GRU: reset, update, new) and initialisation (uniform in
``±1/sqrt(hidden_size)``) are PyTorch's, so a PyTorch ``state_dict`` loads as it is.
"""

import math

import numpy as np

from ..function import Function
from ..ops import array_or_tensor as aot
from ..ops import linear, sigmoid, stack, tanh
from ..ops import relu as _relu
from ..ops.aliases import cat
from ..tensor import Tensor
from . import init
from .layers import dropout
from .module import Module

GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}
"""How many blocks of ``hidden_size`` rows each weight matrix stacks."""


def _rnn_cell(activation):
    def cell(x, h, weights):
        w_ih, w_hh, b_ih, b_hh = weights
        return activation(linear(x, w_ih, b_ih) + linear(h, w_hh, b_hh))
    return cell


class LSTMGates(Function):
    """An LSTM step after the input's product, in one node, as PyTorch fuses it into one kernel:
    the input's share xz (N, 4H) = x W_ih^T + b_ih + b_hh, the state h, c (N, H) and W_hh give
    the gates z = xz + h W_hh^T, then [h', c'] (N, 2H) with c' = σ(z_f) c + σ(z_i) tanh(z_g)
    and h' = σ(z_o) tanh(c'). Thirteen nodes a step become one; x W_ih^T stays the engine's."""

    __slots__ = ("acts",)
    backward_runs_on_arrays = True

    def forward(self, xz, h, c, w_hh):
        self.save_for_backward(xz, h, c, w_hh)
        self.acts = _gate_values(xz + h @ w_hh.T, c)
        i, f, g, o, c2, t = self.acts
        return np.concatenate([o * t, c2], axis=-1)

    def _acts(self, xz, h, c, w_hh):
        """The gates, c' and tanh(c'): kept from forward on arrays, made again on Tensors (so
        that under create_graph the backward is differentiable)."""
        if isinstance(xz, np.ndarray):
            return self.acts
        return _gate_values(xz + h @ w_hh.swapaxes(-1, -2), c)

    def backward(self, grad):
        xz, h, c, w_hh = self.saved_tensors
        i, f, g, o, c2, t = self._acts(xz, h, c, w_hh)
        size = c.shape[-1]
        grad_h, grad_c = grad[..., :size], grad[..., size:]
        grad_c2 = grad_c + grad_h * o * (1 - t * t)
        grad_z = aot.concatenate([grad_c2 * g * i * (1 - i), grad_c2 * c * f * (1 - f),
                                  grad_c2 * i * (1 - g * g), grad_h * t * o * (1 - o)], -1)
        return grad_z, grad_z @ w_hh, grad_c2 * f, grad_z.swapaxes(-1, -2) @ h

    def jvp(self, tangent_xz, tangent_h, tangent_c, tangent_w):
        xz, h, c, w_hh = self.saved_tensors
        i, f, g, o, c2, t = self._acts(xz, h, c, w_hh)
        size = c.shape[-1]
        tangent_z = (tangent_xz + tangent_h @ w_hh.swapaxes(-1, -2)
                     + h @ tangent_w.swapaxes(-1, -2))
        t_i, t_f, t_g, t_o = (tangent_z[..., k * size:(k + 1) * size] for k in range(4))
        t_c2 = (t_f * f * (1 - f) * c + f * tangent_c + t_i * i * (1 - i) * g
                + i * t_g * (1 - g * g))
        return aot.concatenate([t_o * o * (1 - o) * t + o * (1 - t * t) * t_c2, t_c2], -1)


def _gate_values(z, c):
    """σ(z_i), σ(z_f), tanh(z_g), σ(z_o), c' and tanh(c'), on arrays or Tensors."""
    size = c.shape[-1]
    squashed = aot.sigmoid(z)  # all four blocks at once, g's unused: fewer, larger calls
    i, f, o = (squashed[..., k * size:(k + 1) * size] for k in (0, 1, 3))
    g = aot.tanh(z[..., 2 * size:3 * size])
    c2 = f * c + i * g
    return i, f, g, o, c2, aot.tanh(c2)


def _lstm_cell(x, state, weights):
    """One LSTM step from the input x and the state (h, c); ``weights`` hold b_ih + b_hh as
    their one bias (``_lstm_weights``)."""
    h, c = state
    w_ih, w_hh, bias = weights
    out = LSTMGates.apply(linear(x, w_ih, bias), h, c, w_hh)
    size = c.shape[-1]
    return out[..., :size], out[..., size:]


def _lstm_weights(weights):
    """An LSTM's (w_ih, w_hh, b_ih, b_hh) as (w_ih, w_hh, b_ih + b_hh): the two biases add into
    the gates together, so the sum is formed once per call, not once per step."""
    w_ih, w_hh, b_ih, b_hh = weights
    bias = None if b_ih is None else b_ih + b_hh
    return w_ih, w_hh, bias


def _gru_cell(x, h, weights):
    """One GRU step: the reset gate scales the hidden share of the new state (PyTorch's form)."""
    w_ih, w_hh, b_ih, b_hh = weights
    x_r, x_z, x_n = linear(x, w_ih, b_ih).chunk(3, -1)
    h_r, h_z, h_n = linear(h, w_hh, b_hh).chunk(3, -1)
    r, z = sigmoid(x_r + h_r), sigmoid(x_z + h_z)
    n = tanh(x_n + r * h_n)
    return n + z * (h - n)


CELLS = {"RNN_TANH": _rnn_cell(tanh), "RNN_RELU": _rnn_cell(_relu), "LSTM": _lstm_cell,
         "GRU": _gru_cell}


def _as_input(x, dtype, name):
    x = x if isinstance(x, Tensor) else Tensor(np.asarray(x))
    if x.dtype != dtype:
        raise RuntimeError(f"{name}: input must have the type {np.dtype(dtype)} of the layer's "
                           f"weights, got {x.dtype}; convert it (x.double() or x.float()) or "
                           "build the layer with dtype=")
    return x


def _init_uniform(module, hidden_size):
    bound = 1.0 / math.sqrt(hidden_size) if hidden_size > 0 else 0.0
    for p in module.parameters():
        init.uniform_(p, -bound, bound)


class RNNBase(Module):
    """What RNN, LSTM and GRU share: ``num_layers`` stacked layers, each reading the whole
    sequence of the one below (with ``dropout`` between them in training), in one or both
    directions; ``batch_first`` puts the batch axis first in the input and output."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True,
                 batch_first=False, dropout=0.0, bidirectional=False, proj_size=0,
                 dtype=np.float64):
        super().__init__()
        name = type(self).__name__
        if proj_size:
            raise NotImplementedError(f"{name}: proj_size is not supported; add a Linear layer "
                                      "after the LSTM instead")
        if not isinstance(hidden_size, int) or hidden_size <= 0:
            raise ValueError(f"{name}: hidden_size must be a whole number above 0, got "
                             f"{hidden_size!r}")
        if not isinstance(num_layers, int) or num_layers <= 0:
            raise ValueError(f"{name}: num_layers must be a whole number above 0, got "
                             f"{num_layers!r}")
        if not 0.0 <= dropout <= 1.0:
            raise ValueError(f"{name}: dropout must be a probability between 0 and 1, got "
                             f"{dropout}")
        self.mode, self.input_size, self.hidden_size = mode, input_size, hidden_size
        self.num_layers, self.bias, self.batch_first = num_layers, bias, batch_first
        self.dropout, self.bidirectional = float(dropout), bidirectional
        self.proj_size = 0
        rows = GATES[mode] * hidden_size
        directions = 2 if bidirectional else 1
        for layer in range(num_layers):
            width = input_size if layer == 0 else hidden_size * directions
            for suffix in ("", "_reverse")[:directions]:
                end = f"_l{layer}{suffix}"
                setattr(self, "weight_ih" + end, init.parameter((rows, width), dtype))
                setattr(self, "weight_hh" + end, init.parameter((rows, hidden_size), dtype))
                if bias:
                    setattr(self, "bias_ih" + end, init.parameter((rows,), dtype))
                    setattr(self, "bias_hh" + end, init.parameter((rows,), dtype))
        _init_uniform(self, hidden_size)

    def flatten_parameters(self):
        """Nothing to do here (PyTorch packs the weights for cuDNN); kept so PyTorch code runs."""

    def _weights(self, layer, reverse):
        end = f"_l{layer}{'_reverse' if reverse else ''}"
        get = self.__dict__.get
        return (get("weight_ih" + end), get("weight_hh" + end), get("bias_ih" + end),
                get("bias_hh" + end))

    def forward(self, input, hx=None):
        """``output, h_n`` (LSTM: ``output, (h_n, c_n)``), with PyTorch's shapes: output
        (L, N, D * hidden_size), or (N, L, …) with ``batch_first``, or (L, …) unbatched."""
        name = type(self).__name__
        dtype = self.weight_ih_l0.dtype
        x = _as_input(input, dtype, name)
        if x.ndim not in (2, 3):
            raise ValueError(f"{name}: expected a 2-D (unbatched) or 3-D (batched) input, got "
                             f"shape {x.shape}")
        batched = x.ndim == 3
        if x.shape[-1] != self.input_size:
            raise RuntimeError(f"{name}: input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {x.shape[-1]}; the last axis holds each "
                               "step's features")
        if not batched:
            x = x.unsqueeze(1)
        elif self.batch_first:
            x = x.swapaxes(0, 1)
        states = self._initial_states(hx, x.shape[1], batched, dtype)
        directions = 2 if self.bidirectional else 1
        steps = x.unbind(0)  # each layer reads and writes a list of steps: no slicing in a loop
        finals = []
        for layer in range(self.num_layers):
            if layer and self.dropout and self.training:
                steps = [dropout(step, self.dropout, True) for step in steps]
            outputs = []
            for reverse in range(directions):
                k = layer * directions + reverse
                state = tuple(s[k] for s in states) if self.mode == "LSTM" else states[k]
                seq, state = self._run(steps, state, self._weights(layer, reverse),
                                       bool(reverse))
                outputs.append(seq)
                finals.append(state)
            steps = outputs[0] if directions == 1 else [cat(pair, -1) for pair in zip(*outputs)]
        x = stack(steps, 0)
        if not batched:
            x = x.squeeze(1)
        elif self.batch_first:
            x = x.swapaxes(0, 1)
        if self.mode == "LSTM":
            h_n, c_n = (self._final(list(part), batched) for part in zip(*finals))
            return x, (h_n, c_n)
        return x, self._final(finals, batched)

    def _run(self, steps, state, weights, reverse):
        """One direction of one layer over the sequence: its outputs and last state."""
        cell = CELLS[self.mode]
        weights = _lstm_weights(weights) if self.mode == "LSTM" else weights
        outputs = [None] * len(steps)
        for t in (reversed if reverse else iter)(range(len(steps))):
            state = cell(steps[t], state, weights)
            outputs[t] = state[0] if self.mode == "LSTM" else state
        return outputs, state

    def _initial_states(self, hx, batch, batched, dtype):
        """h0 (and c0) for every layer and direction: zeros unless given."""
        count = self.num_layers * (2 if self.bidirectional else 1)
        expected = (count, batch, self.hidden_size) if batched else (count, self.hidden_size)
        parts = ("h0", "c0") if self.mode == "LSTM" else ("h0",)
        if hx is None:
            zero = Tensor(np.zeros((count, batch, self.hidden_size), dtype))
            return (zero,) * len(parts) if self.mode == "LSTM" else zero
        given = hx if self.mode == "LSTM" else (hx,)
        if self.mode == "LSTM" and not (isinstance(hx, tuple) and len(hx) == 2):
            raise TypeError("LSTM: hx must be a tuple (h0, c0) of two tensors")
        states = []
        for label, h in zip(parts, given):
            h = _as_input(h, dtype, f"{type(self).__name__} {label}")
            if tuple(h.shape) != expected:
                raise RuntimeError(f"{type(self).__name__}: Expected hidden size {expected}, "
                                   f"got {tuple(h.shape)} for {label}: (num_layers * "
                                   "num_directions, batch, hidden_size), without the batch axis "
                                   "for an unbatched input")
            states.append(h if batched else h.unsqueeze(1))
        return tuple(states) if self.mode == "LSTM" else states[0]

    @staticmethod
    def _final(states, batched):
        h = stack(states, 0)
        return h if batched else h.squeeze(1)

    def extra_repr(self):
        extra = [f"{self.input_size}, {self.hidden_size}"]
        if self.num_layers != 1:
            extra.append(f"num_layers={self.num_layers}")
        if self.mode == "RNN_RELU":
            extra.append("nonlinearity='relu'")
        for name, default in (("bias", True), ("batch_first", False), ("dropout", 0.0),
                              ("bidirectional", False)):
            if getattr(self, name) != default:
                extra.append(f"{name}={getattr(self, name)}")
        return ", ".join(extra)


class RNN(RNNBase):
    """Elman RNN: ``h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh)`` (or ReLU with
    ``nonlinearity="relu"``), over ``num_layers`` layers."""

    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity="tanh", bias=True,
                 batch_first=False, dropout=0.0, bidirectional=False, dtype=np.float64):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"RNN: unknown nonlinearity {nonlinearity!r}; use 'tanh' or 'relu'")
        super().__init__(f"RNN_{nonlinearity.upper()}", input_size, hidden_size, num_layers,
                         bias, batch_first, dropout, bidirectional, dtype=dtype)
        self.nonlinearity = nonlinearity


class LSTM(RNNBase):
    """Long short-term memory: gates i, f, g, o from ``x_t W_ih^T + b_ih + h_{t-1} W_hh^T +
    b_hh``; ``c_t = σ(f) c_{t-1} + σ(i) tanh(g)``, ``h_t = σ(o) tanh(c_t)``. The forget gate
    lets the gradient reach early inputs through ``c`` without passing a tanh at each step."""

    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, proj_size=0, dtype=np.float64):
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, proj_size, dtype)


class GRU(RNNBase):
    """Gated recurrent unit: reset r and update z gates; ``n_t = tanh(x W_in^T + b_in + r ⊙
    (h_{t-1} W_hn^T + b_hn))``, ``h_t = (1 - z) n_t + z h_{t-1}``."""

    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, dtype=np.float64):
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, dtype=dtype)


class RNNCellBase(Module):
    """One step of a recurrent layer, for loops written by hand: ``cell(x, h)``."""

    def __init__(self, mode, input_size, hidden_size, bias=True, dtype=np.float64):
        super().__init__()
        self.mode, self.input_size, self.hidden_size, self.bias = (mode, input_size,
                                                                   hidden_size, bias)
        rows = GATES[mode] * hidden_size
        self.weight_ih = init.parameter((rows, input_size), dtype)
        self.weight_hh = init.parameter((rows, hidden_size), dtype)
        self.bias_ih = init.parameter((rows,), dtype) if bias else None
        self.bias_hh = init.parameter((rows,), dtype) if bias else None
        _init_uniform(self, hidden_size)

    def forward(self, input, hx=None):
        name = type(self).__name__
        x = _as_input(input, self.weight_ih.dtype, name)
        if x.ndim not in (1, 2) or x.shape[-1] != self.input_size:
            raise RuntimeError(f"{name}: expected an input of shape (batch, {self.input_size}) "
                               f"or ({self.input_size},), got {x.shape}")
        batched = x.ndim == 2
        x = x if batched else x.unsqueeze(0)
        shape = (x.shape[0], self.hidden_size)
        zero = Tensor(np.zeros(shape, x.dtype))
        if hx is None:
            state = (zero, zero) if self.mode == "LSTM" else zero
        else:
            given = hx if self.mode == "LSTM" else (hx,)
            given = [_as_input(h, x.dtype, name) for h in given]
            given = [h if batched else h.unsqueeze(0) for h in given]
            if any(tuple(h.shape) != shape for h in given):
                raise RuntimeError(f"{name}: the hidden state must have shape {shape}, got "
                                   f"{[tuple(h.shape) for h in given]}")
            state = tuple(given) if self.mode == "LSTM" else given[0]
        weights = (self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        state = CELLS[self.mode](x, state, _lstm_weights(weights) if self.mode == "LSTM"
                                 else weights)
        if batched:
            return state
        return tuple(s.squeeze(0) for s in state) if self.mode == "LSTM" else state.squeeze(0)

    def extra_repr(self):
        return f"{self.input_size}, {self.hidden_size}" + ("" if self.bias else ", bias=False")


class RNNCell(RNNCellBase):
    """One Elman RNN step: ``h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)`` (or ReLU)."""

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh",
                 dtype=np.float64):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"RNNCell: unknown nonlinearity {nonlinearity!r}; use 'tanh' or "
                             "'relu'")
        super().__init__(f"RNN_{nonlinearity.upper()}", input_size, hidden_size, bias, dtype)
        self.nonlinearity = nonlinearity


class LSTMCell(RNNCellBase):
    """One LSTM step: ``(h', c') = cell(x, (h, c))``."""

    def __init__(self, input_size, hidden_size, bias=True, dtype=np.float64):
        super().__init__("LSTM", input_size, hidden_size, bias, dtype)


class GRUCell(RNNCellBase):
    """One GRU step: ``h' = cell(x, h)``."""

    def __init__(self, input_size, hidden_size, bias=True, dtype=np.float64):
        super().__init__("GRU", input_size, hidden_size, bias, dtype)
