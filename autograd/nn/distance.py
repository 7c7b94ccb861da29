"""Distances between vectors, ``F.cosine_similarity`` and ``F.pairwise_distance`` (and their
modules), written with the engine's ops."""

import numpy as np

from ..tensor import Tensor
from .module import Module


def _pair(x1, x2):
    return [x if isinstance(x, Tensor) else Tensor(np.asarray(x)) for x in (x1, x2)]


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """The cosine of the angle between x1 and x2 along ``dim`` (broadcast against each other):
    each divided by its length (at least ``eps``), then their dot product. As in PyTorch, the
    two are broadcast first, so ``dim`` and the lengths are those of the broadcast shape."""
    x1, x2 = _pair(x1, x2)
    shape = np.broadcast_shapes(x1.shape, x2.shape)
    x1, x2 = x1.broadcast_to(shape), x2.broadcast_to(shape)
    lengths = [x.norm(2, dim, keepdims=True).clamp(min=eps) for x in (x1, x2)]
    return ((x1 / lengths[0]) * (x2 / lengths[1])).sum(dim)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The ``p``-norm of ``x1 - x2 + eps`` along the last axis (``eps`` keeps the gradient
    finite where the two are equal)."""
    x1, x2 = _pair(x1, x2)
    return (x1 - x2 + eps).norm(p, -1, keepdims=keepdim)


class CosineSimilarity(Module):
    def __init__(self, dim=1, eps=1e-8):
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x1, x2):
        return cosine_similarity(x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    def __init__(self, p=2.0, eps=1e-6, keepdim=False):
        super().__init__()
        self.norm, self.eps, self.keepdim = p, eps, keepdim

    def forward(self, x1, x2):
        return pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)
