"""Recurrent layers as ``torch.nn`` builds them: RNN, LSTM, GRU and their cells.

RNN and GRU steps are written with the engine's ops (linear, sigmoid, tanh, products), so the
gradient through time can be read in the graph; an LSTM layer is one node per direction
(``LSTMSequence``) after one product of the whole sequence by W_ih, as PyTorch fuses it, which
makes it several times faster (an LSTMCell is such a node over one step). Parameter names, shapes, gate order
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


class LSTMSequence(Function):
    """An LSTM layer over a whole sequence (one direction) in one node, as PyTorch runs it in
    one fused kernel. Its inputs: xz (L, N, 4H) = x_t W_ih^T + b_ih + b_hh for every step t,
    formed beforehand in one product (as cuDNN does); the state h, c (N, H); and W_hh (4H, H).
    Each step makes the gates z = xz_t + h W_hh^T, c' = σ(z_f) c + σ(z_i) tanh(z_g) and
    h' = σ(z_o) tanh(c'), in time order or, with ``reverse``, from the last step back. Output
    (L, N, 2H): [h_t, c_t] at every step. Backward goes back through time in one loop (the
    gates kept from forward), where one node per step cost the engine's bookkeeping 64 times
    a training step in the course's 2-layer model; under create_graph it is written with the
    engine's ops, so it is differentiated again."""

    __slots__ = ("reverse", "steps")
    backward_runs_on_arrays = True

    def forward(self, xz, h, c, w_hh, reverse=False):
        self.reverse = reverse
        self.save_for_backward(xz, h, c, w_hh)
        self.steps = _lstm_steps(xz, h, c, w_hh, reverse)
        return np.concatenate([np.stack([step[-1] for step in self.steps]),
                               np.stack([step[5] for step in self.steps])], axis=-1)

    def _steps(self, xz, h, c, w_hh):
        """Every step's values: kept from forward on arrays, made again on Tensors (so that
        under create_graph the backward is differentiable)."""
        if isinstance(xz, np.ndarray):
            return self.steps
        return _lstm_steps(xz, h, c, w_hh, self.reverse)

    def backward(self, grad):
        xz, h, c, w_hh = self.saved_tensors
        i, f, g, o, c_before, _, t_c, h_before, _ = (
            _stacked(part) for part in zip(*self._steps(xz, h, c, w_hh)))
        # z's slopes along c' (for i, f, g) and h' (for o), and c''s along h', for all steps at
        # once: the loop back through time keeps only what chains one step to the one before.
        slopes = aot.concatenate([g * i * (1 - i), c_before * f * (1 - f), i * (1 - g * g),
                                  t_c * o * (1 - o)], -1)
        through = o * (1 - t_c * t_c)
        size = c.shape[-1]
        grad_h = grad_c = 0
        grad_z = [None] * xz.shape[0]
        for t in _time_order(xz.shape[0], not self.reverse):
            grad_h = grad_h + grad[t, :, :size]
            grad_c = grad_c + grad[t, :, size:] + grad_h * through[t]
            grad_z[t] = aot.concatenate([grad_c, grad_c, grad_c, grad_h], -1) * slopes[t]
            grad_h, grad_c = grad_z[t] @ w_hh, grad_c * f[t]
        grad_xz = _stacked(grad_z)
        grad_w = grad_xz.reshape(-1, 4 * size).swapaxes(-1, -2) @ h_before.reshape(-1, size)
        return grad_xz, grad_h, grad_c, grad_w

    def jvp(self, tangent_xz, tangent_h, tangent_c, tangent_w):
        xz, h, c, w_hh = self.saved_tensors
        size = c.shape[-1]
        out = [None] * len(self.steps)
        for t in _time_order(len(self.steps), self.reverse):
            i, f, g, o, c_before, _, t_c, h_before, _ = self.steps[t]
            tangent_z = (tangent_xz[t] + tangent_h @ w_hh.swapaxes(-1, -2)
                         + h_before @ tangent_w.swapaxes(-1, -2))
            t_i, t_f, t_g, t_o = (tangent_z[..., k * size:(k + 1) * size] for k in range(4))
            tangent_c = (t_f * f * (1 - f) * c_before + f * tangent_c + t_i * i * (1 - i) * g
                         + i * t_g * (1 - g * g))
            tangent_h = t_o * o * (1 - o) * t_c + o * (1 - t_c * t_c) * tangent_c
            out[t] = np.concatenate([tangent_h, tangent_c], axis=-1)
        return np.stack(out)


def _time_order(length, reverse):
    return range(length - 1, -1, -1) if reverse else range(length)


def _stacked(parts):
    """The arrays or Tensors ``parts`` stacked along a new first axis."""
    return aot.concatenate([part[None] for part in parts], 0)


def _lstm_steps(xz, h, c, w_hh, reverse):
    """Every step of an LSTM layer, on arrays or Tensors, in time order: (σ(z_i), σ(z_f),
    tanh(z_g), σ(z_o), c before, c after, tanh(c after), h before, h after)."""
    w_t = w_hh.swapaxes(-1, -2)
    size = c.shape[-1]
    # All four blocks through one tanh: σ(z) = ½ tanh(z/2) + ½ for i, f, o and tanh(z) for g.
    scale = np.full(4 * size, 0.5, dtype=xz.dtype)
    scale[2 * size:3 * size] = 1
    shift = np.where(scale == 1, 0, scale).astype(xz.dtype)
    steps = [None] * xz.shape[0]
    for t in _time_order(xz.shape[0], reverse):
        gates = aot.tanh((xz[t] + h @ w_t) * scale) * scale + shift
        i, f, g, o = (gates[..., k * size:(k + 1) * size] for k in range(4))
        c_after = f * c + i * g
        t_c = aot.tanh(c_after)
        h_after = o * t_c
        steps[t] = (i, f, g, o, c, c_after, t_c, h, h_after)
        h, c = h_after, c_after
    return steps


def _lstm_layer(xs, state, weights, reverse=False):
    """An LSTM layer over the sequence xs (L, N, I) from the state (h, c): the outputs (L, N, H)
    and the last (h, c). ``weights`` hold b_ih + b_hh as their one bias (``_lstm_weights``)."""
    h, c = state
    w_ih, w_hh, bias = weights
    out = LSTMSequence.apply(linear(xs, w_ih, bias), h, c, w_hh, reverse=reverse)
    size = c.shape[-1]
    last = 0 if reverse else -1
    return out[..., :size], (out[last, :, :size], out[last, :, size:])


def _lstm_cell(x, state, weights):
    """One LSTM step from the input x (N, I) and the state (h, c): a sequence of one."""
    _, state = _lstm_layer(x.unsqueeze(0), state, weights)
    return state


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
        finals = []
        for layer in range(self.num_layers):
            if layer and self.dropout and self.training:
                x = dropout(x, self.dropout, True)
            outputs = []
            for reverse in range(directions):
                k = layer * directions + reverse
                state = tuple(s[k] for s in states) if self.mode == "LSTM" else states[k]
                seq, state = self._run(x, state, self._weights(layer, reverse), bool(reverse))
                outputs.append(seq)
                finals.append(state)
            x = outputs[0] if directions == 1 else cat(outputs, -1)
        if not batched:
            x = x.squeeze(1)
        elif self.batch_first:
            x = x.swapaxes(0, 1)
        if self.mode == "LSTM":
            h_n, c_n = (self._final(list(part), batched) for part in zip(*finals))
            return x, (h_n, c_n)
        return x, self._final(finals, batched)

    def _run(self, x, state, weights, reverse):
        """One direction of one layer over the sequence x (L, N, D): its outputs (L, N, H) and
        last state. An LSTM layer is one node (``LSTMSequence``); RNN and GRU go step by step."""
        if self.mode == "LSTM":
            return _lstm_layer(x, state, _lstm_weights(weights), reverse)
        cell = CELLS[self.mode]
        steps = x.unbind(0)
        outputs = [None] * len(steps)
        for t in _time_order(len(steps), reverse):
            state = outputs[t] = cell(steps[t], state, weights)
        return stack(outputs, 0), state

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
