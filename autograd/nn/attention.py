"""Attention: ``scaled_dot_product_attention`` and ``MultiheadAttention``, with PyTorch's
signatures, masks and parameter names, written with the engine's ops (matmul, softmax,
masked_fill, ...), so every attention weight's gradient can be read in the graph."""

import math

import numpy as np

from ..ops import linear, softmax
from ..ops.linalg import torch_name
from ..tensor import Tensor
from . import init
from .layers import Linear, dropout
from .module import Module


def _data(x):
    return x.data if isinstance(x, Tensor) else np.asarray(x)


def _attend(scores, value, blocked=None, bias=None, dropout_p=0.0, safe=True):
    """softmax(scores + bias, with ``blocked`` places at -inf) @ value, and the weights. With
    ``safe``, a row with every place blocked gets weights 0 (PyTorch's safe softmax in
    scaled_dot_product_attention) instead of NaN."""
    if bias is not None:
        scores = scores + bias
    if blocked is not None:
        scores = scores.masked_fill(blocked, -math.inf)
    empty = None
    if safe and (blocked is not None or bias is not None):
        empty = np.isneginf(scores.data).all(axis=-1, keepdims=True)
        if empty.any():
            scores = scores.masked_fill(empty, 0.0)
        else:
            empty = None
    weights = softmax(scores, -1)
    if empty is not None:
        weights = weights.masked_fill(empty, 0.0)
    if dropout_p > 0:
        weights = dropout(weights, dropout_p)
    return weights @ value, weights


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, scale=None, enable_gqa=False):
    """softmax(query @ key.mT · scale + mask) @ value, as
    ``torch.nn.functional.scaled_dot_product_attention``: query (..., L, E), key (..., S, E),
    value (..., S, Ev); ``scale`` defaults to 1/√E. A boolean ``attn_mask`` says where attention
    is allowed (True), a float one is added to the scores; ``is_causal`` lets position i attend
    to positions 0..i only. A row with nothing allowed comes out 0, as in PyTorch."""
    if enable_gqa:
        raise NotImplementedError("scaled_dot_product_attention: enable_gqa is not supported; "
                                  "repeat the key and value heads to the query's count first")
    if query.ndim < 2 or key.ndim < 2 or value.ndim < 2:
        raise ValueError(f"scaled_dot_product_attention: query, key and value need shapes "
                         f"(..., L, E), (..., S, E), (..., S, Ev), got {query.shape}, "
                         f"{key.shape}, {value.shape}")
    if query.shape[-1] != key.shape[-1] or key.shape[-2] != value.shape[-2]:
        raise ValueError(f"scaled_dot_product_attention: query {query.shape} and key "
                         f"{key.shape} must share the last axis (E), and key and value "
                         f"{value.shape} the second last (S)")
    _check_dtypes(query, key, value, attn_mask)
    length, source = query.shape[-2], key.shape[-2]
    scale = 1 / math.sqrt(query.shape[-1]) if scale is None else scale
    scores = (query @ key.transpose(-2, -1)) * scale
    blocked = bias = None
    if is_causal:
        if attn_mask is not None:
            raise ValueError("scaled_dot_product_attention: give attn_mask or is_causal=True, "
                             "not both (is_causal builds the lower-triangular mask itself)")
        blocked = np.triu(np.ones((length, source), dtype=bool), 1)
    elif attn_mask is not None:
        mask = _data(attn_mask)
        if mask.dtype == bool:
            blocked = ~mask
        else:
            bias = attn_mask if isinstance(attn_mask, Tensor) else mask.astype(scores.dtype)
    out, _ = _attend(scores, value, blocked, bias, dropout_p)
    return out


def _check_dtypes(query, key, value, attn_mask):
    """PyTorch's dtype rules: query, key and value share one dtype (NumPy would promote a
    float32 query against a float64 key silently), and a mask is bool, float32 or the
    query's dtype."""
    dtypes = [_data(t).dtype for t in (query, key, value)]
    if dtypes[1] != dtypes[0] or dtypes[2] != dtypes[0]:
        q, k, v = (torch_name(d) for d in dtypes)
        raise TypeError(
            f"scaled_dot_product_attention: Expected query, key, and value to have the same "
            f"dtype, but got query.dtype: {q} key.dtype: {k} and value.dtype: {v} instead "
            f"({', '.join(map(str, dtypes))}), as PyTorch says. Cast them to one dtype, e.g. "
            "key.to(query.dtype), or .double() (or .float()) on each")
    if attn_mask is None:
        return
    mask = _data(attn_mask).dtype
    if mask.kind != "b" and mask != np.dtype(np.float32) and mask != dtypes[0]:
        raise TypeError(
            f"scaled_dot_product_attention: Expected attn_mask dtype to be bool or float or to "
            f"match query dtype, but got attn_mask.dtype: {torch_name(mask)} and query.dtype: "
            f"{torch_name(dtypes[0])} instead ({mask} and {dtypes[0]}), as PyTorch says. Pass a "
            "bool mask (True: may attend) or a float one in the query's dtype, e.g. "
            "attn_mask.to(query.dtype)")


class MultiheadAttention(Module):
    """Multi-head attention as ``torch.nn.MultiheadAttention``: queries, keys and values are
    projected (``in_proj_weight`` (3E, E) and ``in_proj_bias``, or ``q_proj_weight``,
    ``k_proj_weight``, ``v_proj_weight`` when kdim or vdim differ from E), split into
    ``num_heads`` heads of E / num_heads, attended, joined and projected by ``out_proj``.
    Inputs are (L, N, E), or (N, L, E) with ``batch_first=True``, or unbatched (L, E).
    ``forward`` returns ``(output, weights)``: the attention weights averaged over heads, or
    None with ``need_weights=False``."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False,
                 dtype=np.float64):
        super().__init__()
        if embed_dim <= 0 or num_heads <= 0 or embed_dim % num_heads:
            raise ValueError(f"MultiheadAttention: embed_dim ({embed_dim}) must be divisible by "
                             f"num_heads ({num_heads}); each head gets embed_dim // num_heads "
                             "features")
        if add_bias_kv or add_zero_attn:
            raise NotImplementedError("MultiheadAttention: add_bias_kv and add_zero_attn are "
                                      "not supported; leave them False")
        self.embed_dim, self.num_heads = embed_dim, num_heads
        self.head_dim = embed_dim // num_heads
        self.dropout, self.batch_first = dropout, batch_first
        self.kdim = embed_dim if kdim is None else kdim
        self.vdim = embed_dim if vdim is None else vdim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        if self._qkv_same_embed_dim:
            self.in_proj_weight = init.parameter((3 * embed_dim, embed_dim), dtype)
            init.xavier_uniform_(self.in_proj_weight)
        else:
            self.q_proj_weight = init.parameter((embed_dim, embed_dim), dtype)
            self.k_proj_weight = init.parameter((embed_dim, self.kdim), dtype)
            self.v_proj_weight = init.parameter((embed_dim, self.vdim), dtype)
            for weight in (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight):
                init.xavier_uniform_(weight)
        self.in_proj_bias = init.parameter(3 * embed_dim, dtype) if bias else None
        self.out_proj = Linear(embed_dim, embed_dim, bias=bias, dtype=dtype)
        if bias:
            init.zeros_(self.out_proj.bias)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True,
                attn_mask=None, average_attn_weights=True, is_causal=False):
        if is_causal and attn_mask is None:
            raise ValueError("MultiheadAttention: is_causal=True is only a hint, as in "
                             "PyTorch; pass the causal mask itself as attn_mask, e.g. "
                             "attn_mask=ag.ones(L, L).triu(1).bool()")
        self_attention = query is key and key is value  # one packed projection, as PyTorch
        batched = query.ndim == 3
        if query.ndim not in (2, 3) or key.ndim != query.ndim or value.ndim != query.ndim:
            raise ValueError(f"MultiheadAttention: query, key and value must all be 3-D "
                             f"(batched) or 2-D (unbatched), got {query.shape}, {key.shape}, "
                             f"{value.shape}")
        if not batched:
            query, key, value = (t.unsqueeze(0) for t in (query, key, value))
        elif not self.batch_first:
            query, key, value = (t.transpose(0, 1) for t in (query, key, value))
        batch, length, embed = query.shape
        if embed != self.embed_dim:
            raise ValueError(f"MultiheadAttention: the query's last axis has {embed} features, "
                             f"but embed_dim is {self.embed_dim}")
        q, k, v = self._project(query, key, value, self_attention)
        heads = self.num_heads
        q, k, v = (t.reshape(batch, t.shape[1], heads, self.head_dim).transpose(1, 2)
                   for t in (q, k, v))
        scores = (q @ k.transpose(-2, -1)) * (1 / math.sqrt(self.head_dim))
        bias = self._mask_bias(attn_mask, key_padding_mask, batch, length, k.shape[2],
                               scores.dtype)
        p = self.dropout if self.training else 0.0
        out, weights = _attend(scores, v, None, bias, p, safe=not need_weights)
        out = self.out_proj(out.transpose(1, 2).reshape(batch, length, embed))
        if need_weights:
            weights = weights.mean(axis=1) if average_attn_weights else weights
        else:
            weights = None
        if not batched:
            return out[0], None if weights is None else weights[0]
        return (out if self.batch_first else out.transpose(0, 1)), weights

    def _project(self, query, key, value, self_attention):
        """The projected queries, keys and values: one matrix product when all three are the
        same tensor (self-attention), as PyTorch packs them."""
        b = self.in_proj_bias
        e = self.embed_dim
        if self._qkv_same_embed_dim:
            w = self.in_proj_weight
            if self_attention:
                return linear(query, w, b).split(e, -1)
            ws = w.split(e, 0)
        else:
            ws = (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight)
        bs = b.split(e, 0) if b is not None else (None,) * 3
        return tuple(linear(x, w_, b_) for x, w_, b_ in zip((query, key, value), ws, bs))

    def _mask_bias(self, attn_mask, key_padding_mask, batch, length, source, dtype):
        """attn_mask and key_padding_mask as one float array added to the scores (N, H, L, S)
        (True in a boolean mask means: do not attend, as in PyTorch's MultiheadAttention)."""
        bias = None
        for mask, shapes in ((attn_mask, {(length, source): (1, 1, length, source),
                                          (batch * self.num_heads, length, source):
                                          (batch, self.num_heads, length, source)}),
                             (key_padding_mask, {(batch, source): (batch, 1, 1, source)})):
            if mask is None:
                continue
            array = _data(mask)
            if array.shape not in shapes:
                raise ValueError(f"MultiheadAttention: a mask of shape {array.shape} does not "
                                 f"fit; attn_mask takes ({length}, {source}) or "
                                 f"({batch * self.num_heads}, {length}, {source}), "
                                 f"key_padding_mask ({batch}, {source})")
            array = array.reshape(shapes[array.shape])
            if array.dtype == bool:
                array = np.where(array, -np.inf, 0.0)
            array = array.astype(dtype, copy=False)
            bias = array if bias is None else bias + array
        return bias

    def extra_repr(self):
        return f"embed_dim={self.embed_dim}, num_heads={self.num_heads}"
