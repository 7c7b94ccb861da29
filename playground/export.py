"""A graph as a standalone PyTorch script that computes the same values and gradients.

The script has one line per node, in spec order and under the node's own name: leaves become
float64 tensors (inputs with ``requires_grad=True``; generators drawn with NumPy's
``default_rng(seed)`` exactly as the playground draws them), ops become the torch code their
registry entry gives (``OpInfo.torch``), and every intermediate that carries a gradient keeps it
with ``retain_grad()``.
Backward starts from the output (from ones when the output is not a single number), and the
script prints every gradient, so a student can check the playground against PyTorch.

The spec is run forward once with our engine first, to learn each node's shape and whether it
carries a gradient; a graph that does not evaluate cannot be exported, and says why.
"""

from __future__ import annotations

import json

from . import registry
from .evaluate import forward, output_name

SCRIPT_NAMES = frozenset({"torch", "np", "F", "print", "range", "reversed"})
"""Names the script itself uses; a node called one of them gets a trailing underscore."""

_F64 = "dtype=torch.float64"

_GENERATORS = {
    "randn": lambda g, shape: f"np.random.default_rng({g['seed']}).standard_normal({shape})",
    "rand": lambda g, shape: f"np.random.default_rng({g['seed']}).random({shape})",
    "zeros": lambda g, shape: f"torch.zeros({shape}, {_F64})",
    "ones": lambda g, shape: f"torch.ones({shape}, {_F64})",
    "full": lambda g, shape: f"torch.full({shape}, {g['value']!r}, {_F64})",
}


def to_pytorch(spec, output=None) -> str:
    """A standalone, readable PyTorch script reproducing ``spec``'s values and gradients.

    Raises SpecError when the graph does not evaluate (the message names the node).
    """
    output = output_name(spec, output)
    tensors = forward(spec)
    names = variable_names(spec)
    uses = {"torch"}
    body = []
    for node in spec.nodes:
        var = names[node.name]
        grad = tensors[node.name].requires_grad
        if node.kind == "op":
            info = registry.get(node.op)
            op = info.torch
            uses.update(op.uses)
            attrs = {a.name: a.default for a in info.attrs} | dict(node.attrs)
            ndims = [tensors[o].ndim for o in node.operands]
            body.append(f"{var} = {op.code([names[o] for o in node.operands], attrs, ndims)}")
            if grad:
                body.append(f"{var}.retain_grad()")
        else:
            code, needs_numpy = _leaf(node.value, node.kind == "input")
            if needs_numpy:
                uses.add("np")
            body.append(f"{var} = {code}")
    root = tensors[output]
    body.append("")
    if not root.requires_grad:
        body.append(f"# {output} depends on no input, so there is nothing to differentiate.")
    elif root.size == 1:
        body.append(f"{names[output]}.backward()")
    else:
        body.append(f"# {output} is not a single number: backward starts from ones, the gradient "
                    f"of {output}.sum().")
        body.append(f"{names[output]}.backward(torch.ones_like({names[output]}))")
    body.append("")
    body += [f'print("{node.name}.grad =", {names[node.name]}.grad)'
             for node in spec.nodes if tensors[node.name].requires_grad]
    return _header(output, uses) + "\n".join(body) + "\n"


def _header(output: str, uses: set) -> str:
    lines = [
        f'"""The Autograd Playground graph in PyTorch (float64), differentiated from `{output}`.',
        "",
        "Run it with `python` where torch is installed; it prints every gradient.",
        '"""',
        "",
    ]
    if "np" in uses:
        lines.append("import numpy as np")
    lines.append("import torch")
    if "F" in uses:
        lines.append("import torch.nn.functional as F")
    lines.append("")
    return "\n".join(lines) + "\n"


def _leaf(value, requires_grad: bool) -> tuple[str, bool]:
    """The code of one leaf tensor, and whether it needs NumPy."""
    flag = ", requires_grad=True" if requires_grad else ""
    if not isinstance(value, dict):
        return f"torch.tensor({json.dumps(value)}, {_F64}{flag})", False
    shape = str(tuple(value["shape"]))
    code = _GENERATORS[value["fn"]](value, shape)
    if value["fn"] in ("randn", "rand"):
        return f"torch.tensor({code}{flag})", True
    return code[:-1] + f"{flag})", False


def variable_names(spec) -> dict[str, str]:
    """Node name -> Python variable: the name itself unless the script already uses it."""
    taken = set(spec.names) | SCRIPT_NAMES
    out = {}
    for name in spec.names:
        var = name
        while var in SCRIPT_NAMES or (var != name and var in taken):
            var += "_"
        taken.add(var)
        out[name] = var
    return out
