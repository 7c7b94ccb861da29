"""Saving and loading state to ``.npz`` files, never pickle: ``save(model.state_dict(), path)``
and ``model.load_state_dict(load(path))``, as ``torch.save`` and ``torch.load``.

Arrays are stored as the archive's arrays; the structure around them (nested dicts with str or
int keys, lists, tuples, numbers, strings, None), as an optimizer's or scheduler's state_dict
has, is stored as JSON text in one more array, so loading runs no code from the file. A plain
``.npz`` written by ``np.savez`` (e.g. a PyTorch state_dict converted to NumPy arrays) loads as a
dict of Tensors.
"""

import json

import numpy as np

from ..tensor import Tensor

__all__ = ["load", "save"]

_STRUCTURE = "__structure__"


def save(obj, f):
    """Write ``obj`` (a state_dict, or any nesting of dicts, lists and tuples of Tensors, arrays,
    numbers, strings and None) to the ``.npz`` file ``f`` (a path or a binary file)."""
    arrays = {}
    structure = _encode(obj, arrays, "")
    arrays[_STRUCTURE] = np.array(json.dumps(structure))
    np.savez(f, **arrays)


def load(f):
    """What ``save`` wrote to ``f``, Tensors as Tensors and arrays as arrays; a plain ``.npz``
    comes back as a dict of Tensors, one per array."""
    with np.load(f, allow_pickle=False) as archive:
        arrays = {name: archive[name] for name in archive.files}
    text = arrays.pop(_STRUCTURE, None)
    if text is None:
        return {name: Tensor(array) for name, array in arrays.items()}
    return _decode(json.loads(str(text)), arrays)


def _encode(value, arrays, path):
    if isinstance(value, (Tensor, np.ndarray, np.generic)):
        tensor = isinstance(value, Tensor)
        name = f"a{len(arrays)}"
        arrays[name] = np.asarray(value.data if tensor else value)
        return {"array": name, "tensor": tensor}
    if isinstance(value, dict):
        items = []
        for key, item in value.items():
            if not isinstance(key, (str, int)) or isinstance(key, bool):
                raise TypeError(f"save: dict keys must be strings or ints, got {key!r} at "
                                f"{path or 'the top level'}")
            items.append([key, _encode(item, arrays, f"{path}/{key}")])
        return {"dict": items}
    if isinstance(value, (list, tuple)):
        kind = "list" if isinstance(value, list) else "tuple"
        return {kind: [_encode(item, arrays, f"{path}/{i}") for i, item in enumerate(value)]}
    if value is None or isinstance(value, (bool, int, float, str)):
        return {"value": value}
    raise TypeError(f"save: cannot store a {type(value).__name__} at {path or 'the top level'}; "
                    "only Tensors, arrays, numbers, strings, None and dicts, lists and tuples "
                    "of them are saved (functions, such as a LambdaLR's lambda, are not: "
                    "rebuild them in code)")


def _decode(node, arrays):
    if "array" in node:
        array = arrays[node["array"]]
        return Tensor(array) if node["tensor"] else array
    if "dict" in node:
        return {key: _decode(item, arrays) for key, item in node["dict"]}
    if "list" in node:
        return [_decode(item, arrays) for item in node["list"]]
    if "tuple" in node:
        return tuple(_decode(item, arrays) for item in node["tuple"])
    return node["value"]
