"""``torch.nn.utils.rnn.pad_sequence``: sequences of different lengths in one padded tensor."""

import numpy as np

from ...ops import stack
from ...ops.aliases import cat
from ...tensor import Tensor


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stack ``sequences`` (each of shape (L_i, *)) along a new batch axis, padding each with
    ``padding_value`` to the longest L: (L, B, *), or (B, L, *) with ``batch_first``. The
    padding gets no gradient; each sequence's elements get theirs."""
    if padding_side not in ("right", "left"):
        raise ValueError(f"pad_sequence: padding_side must be 'right' or 'left', got "
                         f"{padding_side!r}")
    seqs = [s if isinstance(s, Tensor) else Tensor(np.asarray(s)) for s in sequences]
    if not seqs:
        raise RuntimeError("pad_sequence: received an empty list of sequences")
    rest = seqs[0].shape[1:]
    if any(s.ndim == 0 or s.shape[1:] != rest for s in seqs):
        raise RuntimeError(f"pad_sequence: every sequence needs the same trailing shape {rest} "
                           f"after its length, got {[tuple(s.shape) for s in seqs]}")
    longest = max(s.shape[0] for s in seqs)
    padded = []
    for s in seqs:
        fill = Tensor(np.full((longest - s.shape[0],) + rest, padding_value, s.dtype))
        padded.append(s if not len(fill) else
                      cat([s, fill] if padding_side == "right" else [fill, s], 0))
    return stack(padded, 0 if batch_first else 1)
