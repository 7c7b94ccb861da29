"""Transformer layers as ``torch.nn`` builds them: TransformerEncoderLayer, TransformerEncoder
and TransformerDecoderLayer, post-norm (the original paper's order) or pre-norm
(``norm_first=True``), with attention and padding masks. Submodule names follow PyTorch's, so a
PyTorch model's state_dict loads; everything is the engine's ops, so every gradient is in the
graph."""

import copy

import numpy as np

from ..ops import gelu, relu
from .attention import MultiheadAttention
from .layers import Dropout, Linear, ModuleList
from .module import Module
from .normalization import LayerNorm

ACTIVATIONS = {"relu": relu, "gelu": gelu}


def _activation(activation, name):
    if callable(activation):
        return activation
    if activation not in ACTIVATIONS:
        raise ValueError(f"{name}: activation should be 'relu', 'gelu' or a function, not "
                         f"{activation!r}")
    return ACTIVATIONS[activation]


class _Block(Module):
    """What the encoder and decoder layers share: the feed-forward block and the order of
    normalisation around each residual branch."""

    ff_dropout = ""  # the name of the dropout after the feed-forward block

    def _feed_forward_and_norms(self, d_model, dim_feedforward, dropout, activation,
                                layer_norm_eps, norm_first, bias, norms, dtype):
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, dtype=dtype)
        self.norm_first = norm_first
        for i in range(1, norms + 1):
            setattr(self, f"norm{i}", LayerNorm(d_model, eps=layer_norm_eps, bias=bias,
                                                dtype=dtype))
        for i in range(1, norms + 1):
            setattr(self, f"dropout{i}", Dropout(dropout))
        self.activation = _activation(activation, type(self).__name__)

    def _residual(self, x, norm, branch):
        """x plus branch, normalised before the branch (norm_first) or after the sum."""
        return x + branch(norm(x)) if self.norm_first else norm(x + branch(x))

    def _ff_block(self, x):
        out = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return getattr(self, self.ff_dropout)(out)


class TransformerEncoderLayer(_Block):
    """Self-attention then a feed-forward network, each a residual branch with LayerNorm."""

    ff_dropout = "dropout2"

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu",
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, bias=True,
                 dtype=np.float64):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                            batch_first=batch_first, dtype=dtype)
        self._feed_forward_and_norms(d_model, dim_feedforward, dropout, activation,
                                     layer_norm_eps, norm_first, bias, 2, dtype)

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        def attend(x):
            return self.dropout1(self.self_attn(x, x, x, attn_mask=src_mask,
                                                key_padding_mask=src_key_padding_mask,
                                                need_weights=False)[0])

        x = self._residual(src, self.norm1, attend)
        return self._residual(x, self.norm2, self._ff_block)


class TransformerDecoderLayer(_Block):
    """Masked self-attention, attention to the encoder's output (``memory``), then a
    feed-forward network, each a residual branch with LayerNorm."""

    ff_dropout = "dropout3"

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu",
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, bias=True,
                 dtype=np.float64):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                            batch_first=batch_first, dtype=dtype)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                                 batch_first=batch_first, dtype=dtype)
        self._feed_forward_and_norms(d_model, dim_feedforward, dropout, activation,
                                     layer_norm_eps, norm_first, bias, 3, dtype)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=False, memory_is_causal=False):
        def attend_self(x):
            return self.dropout1(self.self_attn(x, x, x, attn_mask=tgt_mask,
                                                key_padding_mask=tgt_key_padding_mask,
                                                need_weights=False)[0])

        def attend_memory(x):
            return self.dropout2(self.multihead_attn(
                x, memory, memory, attn_mask=memory_mask,
                key_padding_mask=memory_key_padding_mask, need_weights=False)[0])

        x = self._residual(tgt, self.norm1, attend_self)
        x = self._residual(x, self.norm2, attend_memory)
        return self._residual(x, self.norm3, self._ff_block)


class TransformerEncoder(Module):
    """``num_layers`` copies of ``encoder_layer`` (each with its own weights, copied from it as
    PyTorch copies them), then an optional final ``norm``."""

    def __init__(self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True,
                 mask_check=True):
        super().__init__()
        self.layers = ModuleList([copy.deepcopy(encoder_layer) for _ in range(num_layers)])
        self.num_layers, self.norm = num_layers, norm

    def forward(self, src, mask=None, src_key_padding_mask=None, is_causal=None):
        x = src
        for layer in self.layers:
            x = layer(x, src_mask=mask, src_key_padding_mask=src_key_padding_mask)
        return x if self.norm is None else self.norm(x)
