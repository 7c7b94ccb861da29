"""A graph as a standalone PyTorch script that computes the same values and gradients.

The script has one line per node, in spec order and under the node's own name: leaves become
float64 tensors (inputs with ``requires_grad=True``; generators drawn with NumPy's
``default_rng(seed)`` exactly as the playground draws them), ops become the torch code in
``TORCH_OPS``, and every intermediate that carries a gradient keeps it with ``retain_grad()``.
Backward starts from the output (from ones when the output is not a single number), and the
script prints every gradient, so a student can check the playground against PyTorch.

The spec is run forward once with our engine first, to learn each node's shape and whether it
carries a gradient; a graph that does not evaluate cannot be exported, and says why.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from . import registry
from .evaluate import forward, output_name

SCRIPT_NAMES = frozenset({"torch", "np", "F", "print", "range", "reversed"})
"""Names the script itself uses; a node called one of them gets a trailing underscore."""

_F64 = "dtype=torch.float64"

_BCE_HELPER = '''\
def binary_cross_entropy(p, t):
    """The playground's binary cross-entropy: p clipped to [1e-12, 1 - 1e-12] before the logs."""
    p = p.clamp(1e-12, 1 - 1e-12)
    return -(t * torch.log(p) + (1 - t) * torch.log(1 - p)).mean()
'''


@dataclass(frozen=True)
class _Op:
    """How to write one op in torch: ``code(args, attrs, ndims)`` gives the right-hand side from
    the operands' variable names, the op's attributes (defaults filled in) and the operands'
    numbers of dimensions. ``uses`` names the imports or helpers the code needs."""

    code: Callable[[list, dict, list], str]
    uses: tuple[str, ...] = ()


def _infix(symbol: str) -> _Op:
    return _Op(lambda x, a, n: f"{x[0]} {symbol} {x[1]}")


def _call(fn: str, **keywords: str) -> _Op:
    """``fn(operands, torch_name=attr, ...)``; ``keywords`` maps torch's names to ours."""
    uses = ("F",) if fn.startswith("F.") else ()
    return _Op(
        lambda x, a, n: f"{fn}({', '.join([*x, *(f'{k}={a[v]!r}' for k, v in keywords.items())])})",
        uses,
    )


def _reduce(fn: str) -> _Op:
    """A reduction over ``axis`` (all axes when None), keeping the reduced axes if asked."""

    def code(x, a, n):
        axis, keepdims = a["axis"], a["keepdims"]
        if axis is None and not keepdims:
            return f"{fn}({x[0]})"
        dims = tuple(range(n[0])) if axis is None else axis
        return f"{fn}({x[0]}, dim={dims!r}" + (", keepdim=True)" if keepdims else ")")

    return _Op(code)


def _transpose(x, a, n):
    axes = a["axes"] if a["axes"] is not None else tuple(reversed(range(n[0])))
    return f"{x[0]}.permute{_tuple(axes)}"


def _squeeze(x, a, n):
    if a["axis"] is None:
        return f"torch.squeeze({x[0]})"
    return f"torch.squeeze({x[0]}, {a['axis']!r})"


def _clip(x, a, n):
    bounds = [f"{k}={a[k]!r}" for k in ("min", "max") if a[k] is not None]
    return f"torch.clamp({x[0]}, {', '.join(bounds)})"


def _tuple(values) -> str:
    return "(" + ", ".join(str(v) for v in values) + ("," if len(values) == 1 else "") + ")"


TORCH_OPS: Mapping[str, _Op] = {
    "add": _infix("+"),
    "sub": _infix("-"),
    "mul": _infix("*"),
    "div": _infix("/"),
    "pow": _infix("**"),
    "matmul": _infix("@"),
    "neg": _Op(lambda x, a, n: f"-{x[0]}"),
    "exp": _call("torch.exp"),
    "log": _call("torch.log"),
    "sqrt": _call("torch.sqrt"),
    "abs": _call("torch.abs"),
    "sin": _call("torch.sin"),
    "cos": _call("torch.cos"),
    "tanh": _call("torch.tanh"),
    "sigmoid": _call("torch.sigmoid"),
    "relu": _call("torch.relu"),
    "leaky_relu": _call("F.leaky_relu", negative_slope="negative_slope"),
    "softmax": _call("torch.softmax", dim="axis"),
    "log_softmax": _call("torch.log_softmax", dim="axis"),
    "logsumexp": _call("torch.logsumexp", dim="axis", keepdim="keepdims"),
    "sum": _reduce("torch.sum"),
    "mean": _reduce("torch.mean"),
    "max": _reduce("torch.amax"),
    "min": _reduce("torch.amin"),
    "reshape": _Op(lambda x, a, n: f"{x[0]}.reshape{_tuple(a['shape'])}"),
    "transpose": _Op(_transpose),
    "flatten": _call("torch.flatten"),
    "squeeze": _Op(_squeeze),
    "unsqueeze": _Op(lambda x, a, n: f"{x[0]}.unsqueeze({a['axis']})"),
    "broadcast_to": _Op(lambda x, a, n: f"{x[0]}.broadcast_to({_tuple(a['shape'])})"),
    "index": _Op(lambda x, a, n: f"{x[0]}[{', '.join(str(i) for i in a['index'])}]"),
    "stack": _Op(lambda x, a, n: f"torch.stack([{', '.join(x)}], dim={a['axis']})"),
    "concatenate": _Op(lambda x, a, n: f"torch.cat([{', '.join(x)}], dim={a['axis']})"),
    "maximum": _call("torch.maximum"),
    "minimum": _call("torch.minimum"),
    "clip": _Op(_clip),
    "mse_loss": _call("F.mse_loss"),
    "cross_entropy": _Op(lambda x, a, n: f"F.cross_entropy({x[0]}, {x[1]}.long())", ("F",)),
    "binary_cross_entropy": _Op(
        lambda x, a, n: f"binary_cross_entropy({x[0]}, {x[1]})", ("binary_cross_entropy",)
    ),
}
"""Op name -> its torch code; one entry per op of ``registry.OPS`` (a test checks this)."""

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
            op = TORCH_OPS[node.op]
            uses.update(op.uses)
            info = registry.get(node.op)
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
    if "binary_cross_entropy" in uses:
        lines += ["", _BCE_HELPER, ""]
    return "\n".join(lines) + "\n"


def _leaf(value, requires_grad: bool) -> tuple[str, bool]:
    """The code of one leaf tensor, and whether it needs NumPy."""
    flag = ", requires_grad=True" if requires_grad else ""
    if not isinstance(value, dict):
        return f"torch.tensor({json.dumps(value)}, {_F64}{flag})", False
    shape = _tuple(value["shape"])
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
