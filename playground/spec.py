"""GraphSpec: a computation graph as plain data, checked through and through.

A spec is an ordered tuple of nodes. A node is an ``input`` (a leaf that requires grad), a
``const`` (a leaf that does not) or an ``op`` applied to earlier nodes. Every GraphSpec that exists
is valid: the constructor checks names, operands, arities, attributes, values and sizes, so the
node editor, the expression parser, JSON documents and share links all meet the same checks.

Leaf values are a number, a nested list of numbers, or a generator such as
``{"fn": "randn", "shape": [3, 2], "seed": 0}``; ``materialise`` turns one into a float64 array,
the same array every time (generators use their own ``numpy.random.default_rng(seed)``).
NaN and infinity are not accepted as values: they are what evaluation flags when it meets them,
so a graph starts finite and the flags show where that stops.

Values and attributes are stored in one canonical form (floats; nested lists; tuples in
attributes; default attributes left out), so specs that mean the same thing compare equal.
"""

from __future__ import annotations

import json
import keyword
import math
import numbers
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

import numpy as np

from . import limits, registry
from .errors import SpecError

FORMAT_VERSION = 1
"""The version written into, and required of, every JSON document."""

KINDS = ("input", "const", "op")

GENERATORS: Mapping[str, tuple[str, ...]] = {
    "randn": ("seed",),
    "rand": ("seed",),
    "zeros": (),
    "ones": (),
    "full": ("value",),
}
"""Generator name -> its fields besides ``shape`` (randn: standard normal, rand: uniform [0, 1))."""

_MAKERS = {
    "randn": lambda g, shape: np.random.default_rng(g["seed"]).standard_normal(shape),
    "rand": lambda g, shape: np.random.default_rng(g["seed"]).random(shape),
    "zeros": lambda g, shape: np.zeros(shape),
    "ones": lambda g, shape: np.ones(shape),
    "full": lambda g, shape: np.full(shape, g["value"]),
}

LANGUAGE_WORDS = ("const", "output", *GENERATORS)
"""Words of the expression language besides the op names."""

RESERVED = frozenset(keyword.kwlist) | frozenset(LANGUAGE_WORDS) | frozenset(registry.OPS)
"""Names a node may not take: Python keywords, op names and the language's own words."""

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"  # a plain string: re caches the pattern

_VALUE_HINT = (
    "a value is a number such as 2.0, a nested list such as [[1, 2], [3, 4]], "
    "or a generator such as randn(3, 2, seed=0)"
)


def check_text(text, what: str, limit: int, kind: str = "text") -> str:
    """``text`` if it is a string of at most ``limit`` characters; SpecError naming ``what``
    (the program, the document, ...) otherwise: the size guard of everything a person pastes."""
    if not isinstance(text, str):
        raise SpecError(f"the {what} must be {kind}, not {type(text).__name__}")
    if len(text) > limit:
        raise SpecError(
            f"the {what} has {len(text):,} characters, more than the limit of {limit:,}"
        )
    return text


def check_name(name) -> str:
    """``name`` if it can name a node; SpecError saying why not otherwise."""
    if not isinstance(name, str):
        raise SpecError(f"a node name must be text, not {type(name).__name__}")
    if len(name) > limits.MAX_NAME_CHARS:
        raise SpecError(
            f"the name `{name[:20]}...` is longer than {limits.MAX_NAME_CHARS} characters"
        )
    if not re.fullmatch(_NAME, name):
        raise SpecError(
            f"`{name}` is not a valid name; use letters, digits and underscores, "
            "starting with a letter, such as h1 or hidden_out"
        )
    if name.startswith("__"):
        raise SpecError(f"`{name}` starts with two underscores, which is reserved; use h or h1")
    if name in RESERVED:
        what = "an op" if name in registry.OPS else "a reserved word"
        raise SpecError(f"`{name}` is {what} in the expression language; pick another name")
    return name


def next_name(stem: str, taken, start: int = 1) -> str:
    """The first of ``stem_1``, ``stem_2``, ... (from ``stem_<start>``) not in ``taken``: how
    generated nodes are named."""
    k = start
    while f"{stem}_{k}" in taken:
        k += 1
    return f"{stem}_{k}"


# ---------------------------------------------------------------------------------------------
# Leaf values.


def _is_number(x) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool | np.bool_)


def _finite_float(x) -> float:
    try:
        out = float(x)
    except OverflowError:
        out = math.inf
    if not math.isfinite(out):
        raise SpecError(
            f"the value {x!r:.30} is not a finite number; NaN and infinity are not accepted "
            "as values (evaluation flags them where they arise)"
        )
    return out


def _list_shape(value) -> tuple[int, ...]:
    """The shape of a nested list, checked rectangular and within limits, without copying it."""
    shape = []
    level = value
    while isinstance(level, list | tuple):
        if not level:
            raise SpecError("an empty list is not a value; a tensor needs at least one number")
        shape.append(len(level))
        if len(shape) > limits.MAX_NDIM:
            raise SpecError(f"the value is nested more than {limits.MAX_NDIM} lists deep")
        level = level[0]
    if math.prod(shape) > limits.MAX_ELEMENTS:
        raise SpecError(_too_many(math.prod(shape)))
    if math.prod(shape) > limits.MAX_LITERAL_NUMBERS:
        raise SpecError(_too_many_written(math.prod(shape), "the list holds"))
    rows = [value]
    for depth, n in enumerate(shape):
        nested = []
        for row in rows:
            if not isinstance(row, list | tuple) or len(row) != n:
                got = "a number"
                if isinstance(row, list | tuple):
                    got = "1 entry" if len(row) == 1 else f"{len(row)} entries"
                raise SpecError(
                    f"the nested list is ragged: at depth {depth + 1} one row has {got} where "
                    f"the first has {n}; every row must have the same length"
                )
            nested.extend(row)
        rows = nested
    for x in rows:
        if isinstance(x, list | tuple):
            raise SpecError(
                f"the nested list is ragged: a list sits at depth {len(shape) + 1} where the "
                "first row has numbers; every row must have the same length"
            )
        if not _is_number(x):
            raise SpecError(f"the list holds {x!r:.30} ({type(x).__name__}); {_VALUE_HINT}")
    return tuple(shape)


def _too_many(n: int) -> str:
    return (
        f"the value has {n:,} elements, more than the limit of {limits.MAX_ELEMENTS:,}; "
        "use a smaller shape"
    )


def _too_many_written(n: int, what: str) -> str:
    return (
        f"{what} {n:,} numbers written out, more than the limit of "
        f"{limits.MAX_LITERAL_NUMBERS:,} for one graph; use a generator such as "
        "randn(1000, 1000, seed=0) for bigger tensors"
    )


def _canonical_list(value) -> list:
    shape = _list_shape(value)
    try:
        array = np.array(value, dtype=np.float64)
    except OverflowError:
        raise SpecError("the list holds a number too large for a float") from None
    if not np.isfinite(array).all():
        raise SpecError(
            "the list holds NaN or infinity; values must be finite "
            "(evaluation flags NaN and infinity where they arise)"
        )
    return array.reshape(shape).tolist()


def _canonical_generator(value: Mapping) -> dict:
    fn = value.get("fn")
    if fn not in GENERATORS:
        raise SpecError(
            f"unknown generator {fn!r:.30}; use one of " + ", ".join(GENERATORS)
        )
    allowed = {"fn", "shape", *GENERATORS[fn]}
    extra = sorted(str(k) for k in value if k not in allowed)
    if extra:
        raise SpecError(
            f"the generator {fn} has no field `{extra[0]:.30}`; its fields are "
            + ", ".join(sorted(allowed))
        )
    shape = value.get("shape", ())
    if not isinstance(shape, list | tuple) or not all(
        isinstance(n, int) and not isinstance(n, bool) for n in shape
    ):
        raise SpecError(f"the shape of {fn} must be a list of whole numbers such as [3, 2]")
    if len(shape) > limits.MAX_NDIM:
        raise SpecError(f"the shape of {fn} has more than {limits.MAX_NDIM} dimensions")
    if any(n < 1 for n in shape):
        raise SpecError(f"the shape of {fn} must hold sizes of at least 1, got {list(shape)}")
    if math.prod(shape) > limits.MAX_ELEMENTS:
        raise SpecError(_too_many(math.prod(shape)))
    out = {"fn": fn, "shape": list(shape)}
    if "seed" in GENERATORS[fn]:
        seed = value.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= limits.MAX_SEED:
            raise SpecError(
                f"the seed of {fn} must be a whole number from 0 to {limits.MAX_SEED}, "
                f"got {seed!r:.30}"
            )
        out["seed"] = seed
    if "value" in GENERATORS[fn]:
        if "value" not in value or not _is_number(value["value"]):
            raise SpecError(f"{fn} needs a number to fill with, e.g. full(3, 2, value=0.5)")
        out["value"] = _finite_float(value["value"])
    return out


def canonical_value(value):
    """A leaf value in canonical form: a float, a nested list of floats, or a generator dict."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if _is_number(value):
        return _finite_float(value)
    if isinstance(value, list | tuple):
        return _canonical_list(value)
    if isinstance(value, Mapping):
        return _canonical_generator(value)
    if isinstance(value, bool | np.bool_):
        raise SpecError("True and False are not values here; write 1.0 or 0.0")
    raise SpecError(f"{value!r:.30} is not a value; {_VALUE_HINT}")


def value_shape(value) -> tuple[int, ...]:
    """The shape of a canonical leaf value, without building the array."""
    if isinstance(value, dict):
        return tuple(value["shape"])
    shape = []
    while isinstance(value, list):
        shape.append(len(value))
        value = value[0]
    return tuple(shape)


def materialise(value) -> np.ndarray:
    """A fresh float64 array for a canonical leaf value; the same numbers on every call."""
    if isinstance(value, dict):
        return _MAKERS[value["fn"]](value, tuple(value["shape"])).astype(np.float64)
    return np.array(value, dtype=np.float64)


def ancestors(nodes, name: str) -> set[str]:
    """``name`` and every node it is computed from. ``nodes`` are in graph order (operands
    first) and have ``.name`` and ``.operands``: a spec's nodes, or an evaluated Result's."""
    seen = {name}
    for node in reversed(nodes):
        if node.name in seen:
            seen.update(node.operands)
    return seen


# ---------------------------------------------------------------------------------------------
# Nodes.


@dataclass(frozen=True)
class Node:
    """One node of a graph. Leaves (input, const) have a ``value``; ops have ``op``, ``operands``
    (names of earlier nodes) and ``attrs``. Construction checks and canonicalises everything that
    can be checked without the rest of the graph; treat ``attrs`` and ``value`` as read-only."""

    name: str
    kind: str
    op: str | None = None
    operands: tuple[str, ...] = ()
    attrs: dict = field(default_factory=dict)
    value: object = None

    def __post_init__(self) -> None:
        try:
            check_name(self.name)
            if self.kind not in KINDS:
                raise SpecError(
                    f"unknown kind {self.kind!r:.30}; a node is an input, a const or an op"
                )
            if self.kind == "op":
                self._check_op()
            else:
                self._check_leaf()
        except SpecError as err:
            raise err.located(node=self.name if isinstance(self.name, str) else None) from None

    def _check_op(self) -> None:
        if self.value is not None:
            raise SpecError("an op node has no value of its own; remove the value")
        if not isinstance(self.op, str):
            raise SpecError("an op node needs `op`, the name of an operation such as tanh")
        info = registry.get(self.op)
        operands = self.operands
        if isinstance(operands, str) or not isinstance(operands, Iterable):
            raise SpecError("the operands must be a list of node names")
        operands = tuple(operands)
        if len(operands) > limits.MAX_OPERANDS:
            raise SpecError(
                f"{info.name} reads {len(operands):,} operands, more than the limit of "
                f"{limits.MAX_OPERANDS:,} for one node"
            )
        if not all(isinstance(o, str) for o in operands):
            raise SpecError("the operands must be node names (text)")
        if info.arity is None and not operands:
            raise SpecError(f"{info.name} needs at least one operand, e.g. {info.example}")
        if info.arity is not None and len(operands) != info.arity:
            raise SpecError(
                f"{info.name} takes {info.arity_text()}, got {len(operands)}; "
                f"for example {info.example}"
            )
        object.__setattr__(self, "operands", operands)
        attrs = {} if self.attrs is None else self.attrs
        object.__setattr__(self, "attrs", registry.canonical_attrs(info, attrs))

    def _check_leaf(self) -> None:
        if self.op is not None or self.operands or self.attrs:
            raise SpecError(f"an {self.kind} node has no op, operands or attributes; remove them")
        if self.value is None:
            raise SpecError(f"an {self.kind} node needs a value; {_VALUE_HINT}")
        object.__setattr__(self, "value", canonical_value(self.value))

    def __hash__(self) -> int:
        return hash(json.dumps(self.to_dict(), sort_keys=True))

    @classmethod
    def input(cls, name: str, value) -> Node:
        """A leaf that requires grad."""
        return cls(name, "input", value=value)

    @classmethod
    def const(cls, name: str, value) -> Node:
        """A leaf that does not require grad."""
        return cls(name, "const", value=value)

    @classmethod
    def operation(cls, name: str, op: str, *operands: str, **attrs) -> Node:
        """An op applied to the named nodes, e.g. ``Node.operation("s", "sum", "h", axis=0)``."""
        return cls(name, "op", op=op, operands=operands, attrs=attrs)

    @property
    def is_leaf(self) -> bool:
        return self.kind != "op"

    @property
    def shape(self) -> tuple[int, ...] | None:
        """A leaf's shape (known without evaluating); None for an op."""
        return value_shape(self.value) if self.is_leaf else None

    def array(self) -> np.ndarray:
        """A leaf's value as a fresh float64 array."""
        if not self.is_leaf:
            raise SpecError("an op node's value comes from evaluation", node=self.name)
        return materialise(self.value)

    def to_dict(self) -> dict:
        """The node as JSON-ready data; empty fields are left out."""
        out = {"name": self.name, "kind": self.kind}
        if self.is_leaf:
            out["value"] = self.value
            return out
        out["op"] = self.op
        out["operands"] = list(self.operands)
        if self.attrs:
            out["attrs"] = {
                k: list(v) if isinstance(v, tuple) else v for k, v in self.attrs.items()
            }
        return out

    @classmethod
    def from_dict(cls, data, position: int) -> Node:
        """A node from JSON data; ``position`` (1-based) names it in errors when its name is bad."""
        if not isinstance(data, dict):
            raise SpecError(f"node {position} must be an object with a name and a kind")
        name = data.get("name")
        where = name if isinstance(name, str) else None
        if "name" not in data:
            raise SpecError(f"node {position} has no name")
        allowed = {"name", "kind", "value"} if data.get("kind") != "op" else {
            "name", "kind", "op", "operands", "attrs"
        }
        extra = sorted(str(k) for k in data if k not in allowed)
        if extra:
            raise SpecError(
                f"unknown field `{extra[0]:.30}`; a {data.get('kind', 'node')!s:.10} node has "
                + ", ".join(sorted(allowed)),
                node=where,
            )
        if data.get("kind") == "op" and not isinstance(data.get("op"), str):
            raise SpecError("an op node needs an `op` naming the operation", node=where)
        return cls(
            name,
            data.get("kind"),
            op=data.get("op"),
            operands=data.get("operands", ()),
            attrs=data.get("attrs", {}),
            value=data.get("value"),
        )


# ---------------------------------------------------------------------------------------------
# Graphs.


class GraphSpec:
    """An immutable, validated, ordered graph of nodes, with an optional chosen output.

    ``output`` is the chosen output's name, or None, meaning the last node.
    """

    __slots__ = ("_nodes", "_index", "_output", "_nbytes")

    def __init__(self, nodes: Iterable[Node] = (), output: str | None = None) -> None:
        nodes, self._nbytes = _charged(nodes)
        if len(nodes) > limits.MAX_NODES:
            raise SpecError(
                f"the graph has {len(nodes):,} nodes, more than the limit of {limits.MAX_NODES:,}"
            )
        index: dict[str, int] = {}
        for node in nodes:
            if node.name in index:
                raise SpecError(
                    f"the name `{node.name}` is used by two nodes; every node needs its own name",
                    node=node.name,
                )
            index[node.name] = len(index)
        total = 0
        for i, node in enumerate(nodes):
            for operand in node.operands:
                if index.get(operand, len(nodes)) >= i:
                    raise _operand_error(nodes, index, node, operand)
            if node.is_leaf:
                total += math.prod(node.shape)
            elif node.op == "pow":
                _check_exponent(nodes[index[node.operands[1]]], node.name)
        if total > limits.MAX_TOTAL_ELEMENTS:
            raise SpecError(
                f"the leaves hold {total:,} elements together, more than the limit of "
                f"{limits.MAX_TOTAL_ELEMENTS:,}; use smaller values"
            )
        if output is not None and output not in index:
            raise SpecError(
                f"the chosen output `{output!s:.30}` is not a node; choose one of the graph's nodes"
            )
        self._nodes = nodes
        self._index = index
        self._output = output

    @classmethod
    def empty(cls) -> GraphSpec:
        """A graph with no nodes."""
        return cls()

    @property
    def nodes(self) -> tuple[Node, ...]:
        return self._nodes

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._index)

    @property
    def output(self) -> str | None:
        """The chosen output, or None (the last node is the output)."""
        return self._output

    @property
    def nbytes(self) -> int:
        """Estimated bytes of memory the spec takes (its nodes, operands and written numbers)."""
        return self._nbytes

    @property
    def effective_output(self) -> str | None:
        """The node evaluation differentiates: the chosen output, else the last node."""
        if self._output is not None:
            return self._output
        return self._nodes[-1].name if self._nodes else None

    def names_of(self, kind: str) -> tuple[str, ...]:
        """Names of the nodes of one kind, in order: ``spec.names_of("input")``."""
        return tuple(n.name for n in self._nodes if n.kind == kind)

    def replace(self, nodes: Iterable[Node] | None = None, output: str | None = ...) -> GraphSpec:
        """A new spec with other nodes and/or output (``output=None`` clears the choice)."""
        return GraphSpec(
            self._nodes if nodes is None else nodes, self._output if output is ... else output
        )

    def __getitem__(self, name: str) -> Node:
        if name not in self._index:
            raise KeyError(f"no node named {name!r}")
        return self._nodes[self._index[name]]

    def __contains__(self, name) -> bool:
        return name in self._index

    def __len__(self) -> int:
        return len(self._nodes)

    def __iter__(self) -> Iterator[Node]:
        return iter(self._nodes)

    def __eq__(self, other) -> bool:
        if not isinstance(other, GraphSpec):
            return NotImplemented
        return self._nodes == other._nodes and self._output == other._output

    def __hash__(self) -> int:
        return hash(self.to_json())

    def __repr__(self) -> str:
        names = ", ".join(self.names[:6]) + (", ..." if len(self) > 6 else "")
        return f"GraphSpec([{names}], output={self._output!r})"

    def to_dict(self) -> dict:
        """The spec as JSON-ready data, with the format version."""
        out = {"version": FORMAT_VERSION, "nodes": [n.to_dict() for n in self._nodes]}
        if self._output is not None:
            out["output"] = self._output
        return out

    def to_json(self, indent: int | None = None) -> str:
        """The spec as a JSON document (compact unless ``indent`` is given)."""
        separators = (",", ":") if indent is None else (",", ": ")
        return json.dumps(self.to_dict(), indent=indent, separators=separators)

    def to_text(self) -> str:
        """The spec in the expression language; ``parse(spec.to_text()) == spec``."""
        from .expr import to_text

        return to_text(self)

    @classmethod
    def from_dict(cls, doc) -> GraphSpec:
        """A spec from JSON-like data, checked completely; SpecError naming the node otherwise."""
        if not isinstance(doc, dict):
            raise SpecError("a graph document must be a JSON object with a version and nodes")
        extra = sorted(str(k) for k in doc if k not in ("version", "nodes", "output"))
        if extra:
            raise SpecError(
                f"unknown field `{extra[0]:.30}` in the document; "
                "a graph document has version, nodes and output"
            )
        version = doc.get("version")
        if type(version) is not int or version != FORMAT_VERSION:
            raise SpecError(
                f"the document has version {version!r:.20}, but this playground reads version "
                f"{FORMAT_VERSION}; export the graph again from this playground"
            )
        nodes = doc.get("nodes")
        if not isinstance(nodes, list):
            raise SpecError("the document needs `nodes`: a list of node objects")
        if len(nodes) > limits.MAX_NODES:
            raise SpecError(
                f"the graph has {len(nodes):,} nodes, more than the limit of {limits.MAX_NODES:,}"
            )
        output = doc.get("output")
        if output is not None and not isinstance(output, str):
            raise SpecError("`output` must be the name of a node, or left out")
        return cls((Node.from_dict(n, i) for i, n in enumerate(nodes, 1)), output)

    @classmethod
    def from_json(cls, text) -> GraphSpec:
        """A spec from a JSON document, checked completely; SpecError otherwise, never another."""
        if isinstance(text, bytes | bytearray):
            try:
                text = bytes(text).decode("utf-8")
            except UnicodeDecodeError:
                raise SpecError("the document is not UTF-8 text") from None
        check_text(text, "document", limits.MAX_JSON_CHARS, kind="JSON text")
        text = text.removeprefix("\ufeff")  # a byte-order mark, as some editors save files
        try:
            doc = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_object)
        except SpecError:
            raise
        except json.JSONDecodeError as err:
            raise SpecError(
                f"the document is not valid JSON: {err.msg}", line=err.lineno, col=err.colno
            ) from None
        except RecursionError:
            raise SpecError("the document is nested too deeply to be a graph") from None
        except ValueError as err:
            raise SpecError(f"the document is not a graph: {err}") from None
        return cls.from_dict(doc)


BYTES_PER_NODE = 500
BYTES_PER_OPERAND = 8
BYTES_PER_NUMBER = 32
"""What a node, an operand and a number written out take in a spec (measured with tracemalloc:
a 2,000-node chain about 420 bytes a node, a 100,000-number list 32 bytes a number)."""


def _charged(nodes: Iterable[Node]) -> tuple[tuple[Node, ...], int]:
    """``nodes`` as a tuple and their estimated bytes; refused as soon as the nodes so far pass
    MAX_EDGES or MAX_LITERAL_NUMBERS, so a generator of nodes (a document being read) stops
    there, before the rest are built."""
    out = []
    edges = numbers = 0
    for node in nodes:
        if not isinstance(node, Node):
            raise SpecError(f"expected a Node, got {type(node).__name__}")
        out.append(node)
        edges += len(node.operands)
        if edges > limits.MAX_EDGES:
            raise SpecError(
                f"the graph's nodes up to this one read {edges:,} operands together, more than "
                f"the limit of {limits.MAX_EDGES:,} edges for one graph",
                node=node.name,
            )
        if node.is_leaf and not isinstance(node.value, dict):
            numbers += math.prod(node.shape)
            if numbers > limits.MAX_LITERAL_NUMBERS:
                raise SpecError(
                    _too_many_written(numbers, "the graph's values up to this node hold"),
                    node=node.name,
                )
    nbytes = (BYTES_PER_NODE * len(out) + BYTES_PER_OPERAND * edges
              + BYTES_PER_NUMBER * numbers)
    return tuple(out), nbytes


def _check_exponent(exponent: Node, user: str) -> None:
    """Refuse a leaf exponent beyond ``limits.MAX_CONST_EXPONENT``, as in x ** 100000."""
    value = exponent.value
    if isinstance(value, float) and abs(value) > limits.MAX_CONST_EXPONENT:
        raise SpecError(
            f"the exponent `{exponent.name}` is {value:g}; constant exponents are limited to "
            f"±{limits.MAX_CONST_EXPONENT:,}",
            node=user,
        )


def _object(pairs: list) -> dict:
    """A JSON object; one that names a key twice is refused (parsers disagree on which wins)."""
    out = {}
    for key, value in pairs:
        if key in out:
            raise SpecError(f"the document gives `{key:.30}` twice in one object; keep one")
        out[key] = value
    return out


def _reject_constant(name: str):
    raise SpecError(f"the document holds {name}; values must be finite numbers")


def _operand_error(nodes, index, node: Node, operand: str) -> SpecError:
    """Why ``operand`` of ``node`` is not an earlier node: unknown, a cycle, or out of order."""
    if operand not in index:
        return SpecError(
            f"operand `{operand:.30}` is not a node of this graph; "
            "use the name of a node defined before this one",
            node=node.name,
        )
    cycle = _cycle_through(nodes, index, node.name)
    if cycle:
        return SpecError(
            "the graph has a cycle " + " → ".join(cycle) + " (each uses the next); a node can "
            "only use nodes computed before it",
            node=node.name,
        )
    return SpecError(
        f"operand `{operand}` is defined after this node; list every node after its operands",
        node=node.name,
    )


def _cycle_through(nodes, index, start: str) -> list[str]:
    """A path start → ... → start following operands, or [] (iterative, no recursion)."""
    parent: dict[str, str] = {}
    stack = [start]
    while stack:
        name = stack.pop()
        for operand in nodes[index[name]].operands:
            if operand == start:
                path = [start, name]
                while path[-1] != start:
                    path.append(parent[path[-1]])
                return path[::-1]
            if operand in index and operand not in parent:
                parent[operand] = name
                stack.append(operand)
    return []
