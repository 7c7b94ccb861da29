"""The expression language: a few lines of math in, a GraphSpec out, and back.

    x = 2.0                      # a number or list on its own: an input (requires grad)
    w = [[0.5, -1.0], [2.0, 0.1]]
    W = randn(2, 2, seed=0)      # generators: randn, rand (seeded), zeros, ones, full(..., value=)
    b = const(0.1)               # const(...) around a number, list or generator: a constant leaf
    h = tanh(w @ [x, x] + b)     # operators + - * / ** @, unary -, and the registry's functions
    p = softmax(h, axis=0)       # attributes by keyword: axis=, keepdims=, shape=, ...
    first = h[0]                 # plain indexing with whole numbers
    L = sum(h ** 2)
    output(L)                    # optional: choose the output (default: the last line)

Every operation becomes a node. The outermost one takes the assigned name; inner ones get a
generated name made of the op and a number (``add_1``, ``tanh_2``), and numbers or lists inside an
expression become constant nodes ``c_1``, ``c_2``, ... so the drawing shows every step, as in
micrograd's. A list of expressions such as ``[x, x]`` is ``stack(x, x)``. Names cannot be
reassigned, and a name must be defined before it is used.

The text is read with ``ast.parse`` and nothing else: every syntax node is checked against a
whitelist and turned into graph nodes; nothing the user typed is ever evaluated as Python.
Size limits (text, bracket depth, expression depth, node count, tensor size, literal exponents)
are checked before or while parsing, and every problem is a SpecError with line and column.

``to_text(spec)`` writes one line per node, so ``parse(to_text(spec)) == spec`` holds exactly.
``parse_value(text)`` reads one leaf value on its own (what may follow ``x =``), for value boxes.
"""

from __future__ import annotations

import ast
import difflib
import json
import re

from . import limits, registry
from .errors import SpecError
from .spec import (
    GENERATORS,
    GraphSpec,
    Node,
    canonical_value,
    check_name,
    check_text,
    next_name,
)

_OPERATORS = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.Pow: "**",
    ast.MatMult: "@",
}

_NOT_OPERATORS = {
    ast.FloorDiv: "`//` (floor division) has no useful gradient; use / instead",
    ast.Mod: "`%` (remainder) has no useful gradient here; it is not available",
    ast.LShift: "`<<` is a bit operation, not available here",
    ast.RShift: "`>>` is a bit operation, not available here",
    ast.BitOr: "`|` is a bit operation, not available here",
    ast.BitXor: "`^` is a bit operation; for powers write x ** 2",
    ast.BitAnd: "`&` is a bit operation, not available here",
    ast.Not: "`not` is not available here; the language works with numbers",
    ast.Invert: "`~` is a bit operation, not available here",
}

_NOT_EXPRESSIONS = {
    ast.Attribute: "attribute access is not allowed; write plain names and function calls "
    "such as tanh(x)",
    ast.Lambda: "lambdas are not allowed; write each step as its own line, such as h = tanh(x)",
    ast.ListComp: "comprehensions are not allowed; write the list out, such as [a, b, c]",
    ast.SetComp: "comprehensions are not allowed; write the list out, such as [a, b, c]",
    ast.DictComp: "comprehensions are not allowed; write the list out, such as [a, b, c]",
    ast.GeneratorExp: "comprehensions are not allowed; write the list out, such as [a, b, c]",
    ast.Compare: "comparisons are not differentiable ops; use relu(x), maximum(a, b) "
    "or clip(x, min=0.0) instead",
    ast.BoolOp: "`and` / `or` are not available; the language works with numbers",
    ast.IfExp: "`... if ... else ...` is not available; use maximum, minimum, relu or clip",
    ast.Dict: "dictionaries are not values; use a number, a list or a generator",
    ast.Set: "sets are not values; use a list in square brackets",
    ast.Tuple: "parentheses with commas make a tuple; write a list in square brackets, "
    "such as [a, b]",
    ast.JoinedStr: "text in quotes is not a value; use numbers",
    ast.Starred: "`*` unpacking is not allowed; pass each operand by name",
    ast.NamedExpr: "`:=` is not allowed; give the value its own line, such as h = tanh(x)",
    ast.Slice: "slices are not supported; pick elements with whole numbers such as x[0] or "
    "x[1, 2]",
    ast.Await: "`await` is not part of the language",
    ast.Yield: "`yield` is not part of the language",
    ast.YieldFrom: "`yield` is not part of the language",
}

_TRANSPOSES = ("T", "mT", "transpose", "t")
"""PyTorch's and NumPy's ways to transpose a tensor by attribute: ``W.T``, ``W.mT``,
``W.transpose(0, 1)``, ``W.t()``."""


def _attribute_hint(node: ast.AST) -> str | None:
    """For ``W.T`` or ``x.sum()`` (attribute access, which the language does not have): the
    function call that says the same, ``transpose(W)`` or ``sum(x)``; None for anything else."""
    if not isinstance(node, ast.Attribute):
        return None
    base = ast.unparse(node.value)
    base = base if len(base) <= 20 else "x"
    if node.attr in _TRANSPOSES:
        return (f"attribute access is not allowed; for {base}.{node.attr} write "
                f"transpose({base}), which reverses the axes as .T does")
    if node.attr in registry.OPS:
        return (f"attribute access is not allowed; for {base}.{node.attr}(...) write "
                f"{node.attr}({base}, ...), the function with the tensor first")
    return None


_NOT_STATEMENTS = {
    ast.Import: "imports are not allowed; every function of the language is already there, "
    "such as tanh, sum and softmax",
    ast.ImportFrom: "imports are not allowed; every function of the language is already there, "
    "such as tanh, sum and softmax",
    ast.AugAssign: "names cannot be reassigned, so `+=` and the like are not allowed; "
    "write a new name, such as x2 = x + 1",
    ast.AnnAssign: "type annotations are not part of the language; write x = 2.0",
    ast.FunctionDef: "defining functions is not allowed; write one assignment per line",
    ast.AsyncFunctionDef: "defining functions is not allowed; write one assignment per line",
    ast.ClassDef: "defining classes is not allowed; write one assignment per line",
    ast.For: "loops are not allowed; write each step as its own line",
    ast.AsyncFor: "loops are not allowed; write each step as its own line",
    ast.While: "loops are not allowed; write each step as its own line",
    ast.If: "`if` is not allowed; use maximum, minimum, relu or clip",
    ast.With: "`with` blocks are not allowed; write one assignment per line",
    ast.AsyncWith: "`with` blocks are not allowed; write one assignment per line",
    ast.Try: "`try` blocks are not allowed; write one assignment per line",
    ast.Delete: "`del` is not allowed; nodes stay once defined",
    ast.Global: "`global` is not part of the language",
    ast.Nonlocal: "`nonlocal` is not part of the language",
    ast.Return: "`return` is not part of the language; choose the output with output(name)",
    ast.Raise: "`raise` is not part of the language",
    ast.Assert: "`assert` is not part of the language",
}

_LINE_BREAK = r"\r\n|\r|\n"  # patterns are plain strings: re caches them
_BRACKETS = r"[()\[\]{}#\n]"
_FUNCTIONS = (*registry.OPS, "const", "output", *GENERATORS)
_VALUE_EXAMPLES = (
    "a number such as -2.5, a list such as [[1, 2], [3, 4]] or a generator such as "
    "randn(3, 2, seed=0)"
)


def parse(text: str) -> GraphSpec:
    """The GraphSpec written in ``text``; SpecError with line and column for any problem."""
    check_text(text, "program", limits.MAX_TEXT_CHARS)
    text = text.removeprefix("\ufeff")
    tree = _syntax_tree(text, "program", "write one assignment per line, such as h = tanh(x)")
    return _Parser(text, tree).run()


def parse_value(text: str):
    """A leaf value typed on its own, in canonical form: a number (``-2.5``), a nested list
    (``[[1, 2], [3, 4]]``) or a generator (``randn(3, 2, seed=0)``), as on the right of ``x = ...``.

    The node editor's value box reads through this: the same whitelist and limits as ``parse``,
    nothing evaluated; anything else is a SpecError with the line and column of the problem.
    """
    check_text(text, "value", limits.MAX_TEXT_CHARS)
    text = text.removeprefix("\ufeff")
    # A value may start with blanks, which Python's parser takes for an indented line: drop
    # them, keep the line breaks (so lines still count right) and add the indent back to the
    # column of an error on the first line.
    body = text.lstrip()
    blank = re.split(_LINE_BREAK, text[: len(text) - len(body)])
    source = "\n" * (len(blank) - 1) + body
    try:
        tree = _syntax_tree(source, "value", f"write {_VALUE_EXAMPLES}")
        return _Parser(source, tree).value()
    except SpecError as err:
        if err.line != len(blank) or err.col is None:
            raise
        raise SpecError(err.problem, line=err.line, col=err.col + len(blank[-1])) from None


def to_text(spec: GraphSpec) -> str:
    """``spec`` in the expression language, one line per node (generated names included)."""
    lines = [f"{node.name} = {_right_side(node)}" for node in spec.nodes]
    if spec.output is not None:
        lines.append(f"output({spec.output})")
    return "".join(line + "\n" for line in lines)


# ---------------------------------------------------------------------------------------------
# Reading.


def _syntax_tree(text: str, what: str, hint: str) -> ast.Module:
    """``text`` read by ``ast.parse`` (only read, never run); ``hint`` ends a syntax error."""
    _check_brackets(text)
    try:
        return ast.parse(text, mode="exec")
    except SyntaxError as err:
        raise SpecError(
            f"this is not valid syntax ({err.msg}); {hint}", line=err.lineno, col=err.offset
        ) from None
    except (ValueError, OverflowError) as err:
        raise SpecError(f"the {what} cannot be read: {str(err)[:80]}") from None
    except (RecursionError, MemoryError):
        raise SpecError(
            f"the {what} is nested too deeply to read; split long expressions over several "
            "lines with names for the parts"
        ) from None


def _check_brackets(text: str) -> None:
    """Refuse deep bracket nesting before Python's parser can run out of stack on it."""
    depth = 0
    line, line_start = 1, 0
    skip_to = 0
    for match in re.finditer(_BRACKETS, text):
        char, pos = match.group(), match.start()
        if char == "\n":
            line, line_start = line + 1, pos + 1
        elif pos < skip_to:
            continue
        elif char == "#":
            end = text.find("\n", pos)
            skip_to = len(text) if end < 0 else end
        elif char in "([{":
            depth += 1
            if depth > limits.MAX_BRACKET_DEPTH:
                raise SpecError(
                    f"brackets are nested more than {limits.MAX_BRACKET_DEPTH} deep; split the "
                    "expression over several lines with names for the parts",
                    line=line,
                    col=pos - line_start + 1,
                )
        else:
            depth = max(depth - 1, 0)


class _Parser:
    """One reading of one program; holds the nodes made so far (no state outlives a parse)."""

    def __init__(self, text: str, tree: ast.Module) -> None:
        self.text = text
        self.tree = tree
        self.nodes: list[Node] = []
        self.defined: dict[str, int] = {}
        self.targets: dict[str, int] = {}
        for stmt in tree.body:
            if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
                self.targets.setdefault(stmt.targets[0].id, stmt.lineno)
        self.taken = set(self.targets)
        self.counters: dict[str, int] = {}
        self.output: str | None = None
        self.output_line = 0

    def run(self) -> GraphSpec:
        self.check_depth()
        for stmt in self.tree.body:
            self.statement(stmt)
        return GraphSpec(self.nodes, self.output)

    def value(self) -> object:
        """The one leaf value the text holds, in canonical form (for ``parse_value``)."""
        self.check_depth()
        body = self.tree.body
        if not body:
            raise SpecError(f"type a value: {_VALUE_EXAMPLES}")
        if len(body) > 1 or not isinstance(body[0], ast.Expr):
            raise self.error(body[-1], f"type just one value: {_VALUE_EXAMPLES}", quote=True)
        node = body[0].value
        data = self.data(node)
        if data is None:
            part = self.not_a_value(node)
            if isinstance(part, ast.List) and not part.elts:
                problem = "an empty list is not a value; a tensor needs at least one number"
            elif isinstance(self.data(part), dict):
                problem = "a generator stands on its own, not inside a list"
            else:
                problem = f"this is not a number, a list or a generator; write {_VALUE_EXAMPLES}"
            raise self.error(part, problem, quote=True)
        try:
            return canonical_value(data)
        except SpecError as err:
            raise self.error(node, err.problem) from None

    def not_a_value(self, node: ast.AST) -> ast.AST:
        """The innermost part of ``node`` that keeps it from being a value: the error's place."""
        while isinstance(node, ast.List):
            parts = (item for item in node.elts if not isinstance(self.data(item), float | list))
            part = next(parts, None)
            if part is None:
                break
            node = part
        return node

    def check_depth(self) -> None:
        """Refuse expression trees deeper than ``limits.MAX_EXPR_DEPTH``, without recursion.

        Only expressions count (a name, a number, an operation, a call, a list): a sum of 100
        terms, ``a + a + ... + a``, is 99 additions above a name, 100 levels."""
        stack = [(stmt, stmt, 0) for stmt in self.tree.body]
        while stack:
            node, stmt, depth = stack.pop()
            if isinstance(node, ast.expr):
                depth += 1
            if depth > limits.MAX_EXPR_DEPTH:
                raise self.error(
                    stmt,
                    f"this line is nested more than {limits.MAX_EXPR_DEPTH} levels deep; "
                    "split it over several lines with names for the parts",
                )
            stack.extend((child, stmt, depth) for child in ast.iter_child_nodes(node))

    # Errors and node making.

    def error(self, where: ast.AST, problem: str, quote: bool = False) -> SpecError:
        """A SpecError at ``where``; ``quote`` puts the offending source text first."""
        line = getattr(where, "lineno", None)
        col = getattr(where, "col_offset", None)
        if line is not None and col is not None:
            source = re.split(_LINE_BREAK, self.text)[line - 1].encode("utf-8")
            col = len(source[:col].decode("utf-8", errors="replace")) + 1
        if quote:
            snippet = " ".join((ast.get_source_segment(self.text, where) or "").split())
            snippet = snippet if len(snippet) <= 40 else snippet[:37] + "..."
            problem = f"`{snippet}` — {problem}"
        return SpecError(problem, line=line, col=col)

    def make(self, where: ast.AST, name: str, kind: str, **fields) -> str:
        """Add a node made at ``where``; SpecErrors from its checks get the line and column."""
        if len(self.nodes) >= limits.MAX_NODES:
            raise self.error(
                where,
                f"the program makes more than {limits.MAX_NODES:,} nodes (intermediate steps "
                "count too); make the graph smaller",
            )
        try:
            node = Node(name, kind, **fields)
        except SpecError as err:
            raise self.error(where, err.problem) from None
        self.nodes.append(node)
        self.defined[name] = getattr(where, "lineno", 0)
        self.taken.add(name)
        return name

    def fresh(self, stem: str) -> str:
        """A new generated name; a counter per stem keeps long programs linear, not quadratic."""
        name = next_name(stem, self.taken, self.counters.get(stem, 1))
        self.counters[stem] = int(name.rsplit("_", 1)[1]) + 1
        self.taken.add(name)
        return name

    # Statements.

    def statement(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.Assign):
            self.assignment(stmt)
        elif isinstance(stmt, ast.Expr) and _is_call_to(stmt.value, "output"):
            self.output_directive(stmt.value)
        elif isinstance(stmt, ast.Expr):
            raise self.error(
                stmt,
                "a line must be an assignment such as h = tanh(x), or output(h) to choose the "
                "output",
                quote=True,
            )
        elif isinstance(stmt, ast.Pass | ast.Break | ast.Continue):
            raise self.error(stmt, f"`{type(stmt).__name__.lower()}` is not part of the language")
        else:
            problem = _NOT_STATEMENTS.get(type(stmt), "this statement is not part of the language")
            raise self.error(stmt, problem)

    def assignment(self, stmt: ast.Assign) -> None:
        if len(stmt.targets) > 1:
            raise self.error(stmt, "assign one name per line, such as a = 1.0", quote=True)
        target = stmt.targets[0]
        if not isinstance(target, ast.Name):
            raise self.error(
                target,
                "only a plain name can be assigned, such as h = tanh(x); one name per line",
                quote=True,
            )
        name = target.id
        try:
            check_name(name)
        except SpecError as err:
            raise self.error(target, err.problem) from None
        if name in self.defined:
            raise self.error(
                target,
                f"`{name}` is already defined on line {self.defined[name]}; names cannot be "
                f"reassigned — pick a new name such as {name}2",
            )
        value = stmt.value
        data = self.data(value)
        if data is not None:
            self.make(value, name, "input", value=data)
        elif _is_call_to(value, "const"):
            self.make(value, name, "const", value=self.const_argument(value))
        elif self.expr(value, name) != name:
            raise self.error(
                stmt,
                f"this only gives `{ast.unparse(value)}` a second name; use it directly, "
                f"or write {name} = 1.0 * {ast.unparse(value)} for a separate node",
            )

    def output_directive(self, call: ast.Call) -> None:
        if call.keywords or len(call.args) != 1 or not isinstance(call.args[0], ast.Name):
            raise self.error(call, "write output(name) with the name of one node", quote=True)
        if self.output is not None:
            raise self.error(call, f"the output is already chosen on line {self.output_line}")
        name = call.args[0].id
        self.name_reference(call.args[0])
        self.output, self.output_line = name, call.lineno

    # Data: numbers, lists and generators that become leaf values.

    def data(self, node: ast.AST):
        """The leaf value written at ``node`` (number, list or generator), or None."""
        number = self.number(node)
        if number is not None:
            return number
        if isinstance(node, ast.List):
            items = [self.data(item) for item in node.elts]
            if items and all(item is not None and not isinstance(item, dict) for item in items):
                return items
            return None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in GENERATORS:
                return self.generator(node)
        return None

    def number(self, node: ast.AST) -> float | None:
        """The number written at ``node`` (a literal, possibly signed) as a float, or None."""
        exact = self.exact_number(node)
        if exact is None:
            return None
        try:
            return float(exact)
        except OverflowError:
            raise self.error(node, "this number is too large for a float", quote=True) from None

    def exact_number(self, node: ast.AST) -> int | float | None:
        """The int or float written at ``node``, sign included, or None if it is no literal."""
        sign = 1
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            sign = -1 if isinstance(node.op, ast.USub) else 1
            node = node.operand
        if not isinstance(node, ast.Constant):
            return None
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.error(node, _constant_problem(value), quote=True)
        return sign * value

    def generator(self, call: ast.Call) -> dict:
        fn = call.func.id
        fields = GENERATORS[fn]
        shape = []
        for arg in call.args:
            if not (isinstance(arg, ast.Constant) and type(arg.value) is int):
                raise self.error(
                    arg,
                    f"the sizes of {fn} are whole numbers written out, such as {fn}(3, 2"
                    + (", seed=0)" if "seed" in fields else ")"),
                    quote=True,
                )
            shape.append(arg.value)
        out = {"fn": fn, "shape": shape}
        for keyword in call.keywords:
            if keyword.arg not in fields:
                options = " and ".join(f"{f}=" for f in fields) or "no settings"
                raise self.error(
                    keyword, f"{fn} takes the sizes and {options}", quote=keyword.arg is not None
                )
            out[keyword.arg] = self.literal(keyword.value, keyword.arg)
        return out

    def const_argument(self, call: ast.Call):
        value = self.data(call.args[0]) if len(call.args) == 1 and not call.keywords else None
        if value is None:
            raise self.error(
                call,
                "const(...) takes one number, list or generator, such as const(0.5) or "
                "const(randn(3, seed=1))",
                quote=True,
            )
        return value

    def literal(self, node: ast.AST, what: str):
        """An attribute value written out: a number, True/False/None, text, or a tuple/list."""
        if isinstance(node, ast.Constant) and (
            node.value is None or isinstance(node.value, bool | str)
        ):
            return node.value
        if isinstance(node, ast.Tuple | ast.List):
            return tuple(self.literal(item, what) for item in node.elts)
        number = self.exact_number(node)
        if number is not None:
            return number
        raise self.error(
            node,
            f"the value of `{what}` must be written out, such as 0, -1, (0, 1), True or 0.5",
            quote=True,
        )

    # Expressions: each returns the name of the node holding its result.

    def expr(self, node: ast.AST, name: str | None = None) -> str:
        if isinstance(node, ast.Name):
            return self.name_reference(node)
        if isinstance(node, ast.Constant) or (
            isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant)
        ):
            value = self.number(node)
            if value is not None:
                return self.make(node, name or self.fresh("c"), "const", value=value)
        if isinstance(node, ast.List):
            return self.list_display(node, name)
        if isinstance(node, ast.UnaryOp):
            return self.unary(node, name)
        if isinstance(node, ast.BinOp):
            return self.binary(node, name)
        if isinstance(node, ast.Call):
            return self.call(node, name)
        if isinstance(node, ast.Subscript):
            return self.subscript(node, name)
        problem = _NOT_EXPRESSIONS.get(type(node), "this is not part of the language")
        raise self.error(node, _attribute_hint(node) or problem, quote=True)

    def name_reference(self, node: ast.Name) -> str:
        name = node.id
        if name in self.defined:
            return name
        if name.startswith("__"):
            raise self.error(
                node, "names with two underscores are not allowed; use plain names", quote=True
            )
        if name in _FUNCTIONS:
            raise self.error(node, f"`{name}` is a function; call it, such as {name}(x)")
        if name in self.targets:
            raise self.error(
                node,
                f"`{name}` is used before it is defined on line {self.targets[name]}; "
                "define it first",
            )
        close = difflib.get_close_matches(name, list(self.defined), n=1)
        hint = f"did you mean `{close[0]}`?" if close else "define it on an earlier line"
        raise self.error(node, f"`{name}` is not defined; {hint}")

    def list_display(self, node: ast.List, name: str | None) -> str:
        data = self.data(node)
        if data is not None:
            return self.make(node, name or self.fresh("c"), "const", value=data)
        if not node.elts:
            raise self.error(node, "an empty list is not a value", quote=True)
        operands = tuple(self.expr(item) for item in node.elts)
        return self.make(node, name or self.fresh("stack"), "op", op="stack", operands=operands)

    def unary(self, node: ast.UnaryOp, name: str | None) -> str:
        if isinstance(node.op, ast.UAdd):
            return self.expr(node.operand, name)
        if not isinstance(node.op, ast.USub):
            raise self.error(node, _NOT_OPERATORS[type(node.op)], quote=True)
        operand = self.expr(node.operand)
        return self.make(node, name or self.fresh("neg"), "op", op="neg", operands=(operand,))

    def binary(self, node: ast.BinOp, name: str | None) -> str:
        symbol = _OPERATORS.get(type(node.op))
        if symbol is None:
            raise self.error(node, _NOT_OPERATORS[type(node.op)], quote=True)
        op = registry.OPERATORS[(symbol, 2)]
        if op == "pow":
            exponent = self.number(node.right)
            if exponent is not None and abs(exponent) > limits.MAX_CONST_EXPONENT:
                raise self.error(
                    node.right,
                    f"constant exponents are limited to ±{limits.MAX_CONST_EXPONENT:,}",
                    quote=True,
                )
        operands = (self.expr(node.left), self.expr(node.right))
        return self.make(node, name or self.fresh(op), "op", op=op, operands=operands)

    def call(self, node: ast.Call, name: str | None) -> str:
        func = node.func
        if not isinstance(func, ast.Name):
            problem = _NOT_EXPRESSIONS.get(type(func), "only functions called by name are allowed")
            raise self.error(func, _attribute_hint(func) or problem, quote=True)
        fn = func.id
        if fn == "const":
            value = self.const_argument(node)
            return self.make(node, name or self.fresh("c"), "const", value=value)
        if fn in GENERATORS:
            value = self.generator(node)
            return self.make(node, name or self.fresh("c"), "const", value=value)
        if fn == "output":
            raise self.error(node, "output(name) is a line of its own, not part of an expression")
        info = registry.OPS.get(fn)
        if info is None:
            raise self.error(func, self.unknown_function(fn), quote=True)
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                raise self.error(arg, _NOT_EXPRESSIONS[ast.Starred], quote=True)
        if info.arity is not None and len(node.args) != info.arity:
            raise self.error(
                node,
                f"{fn} takes {info.arity_text()}, got {len(node.args)}; settings go by name, "
                f"for example {info.example}",
            )
        attrs = {}
        for keyword in node.keywords:
            if keyword.arg is None:
                raise self.error(
                    keyword,
                    "`**` unpacking is not allowed; write each setting by name, such as axis=0",
                    quote=True,
                )
            attrs[keyword.arg] = self.literal(keyword.value, keyword.arg)
        operands = tuple(self.expr(arg) for arg in node.args)
        return self.make(
            node, name or self.fresh(fn), "op", op=fn, operands=operands, attrs=attrs
        )

    def unknown_function(self, fn: str) -> str:
        if fn.startswith("__"):
            return "names with two underscores are not allowed; use the language's functions"
        close = difflib.get_close_matches(fn, _FUNCTIONS, n=2)
        hint = (
            "did you mean " + " or ".join(f"{c}(...)" for c in close) + "?"
            if close
            else "the functions are " + ", ".join(_FUNCTIONS)
        )
        return f"not a function of the language; {hint}"

    def subscript(self, node: ast.Subscript, name: str | None) -> str:
        key = node.slice
        items = key.elts if isinstance(key, ast.Tuple) else [key]
        index = []
        for item in items:
            try:
                number = self.exact_number(item)
            except SpecError:
                number = None
            if not isinstance(number, int):
                problem = _NOT_EXPRESSIONS[ast.Slice] if isinstance(item, ast.Slice) else (
                    "index with whole numbers written out, such as x[0] or x[1, 2]"
                )
                raise self.error(item, problem, quote=True)
            index.append(number)
        operand = self.expr(node.value)
        return self.make(
            node,
            name or self.fresh("index"),
            "op",
            op="index",
            operands=(operand,),
            attrs={"index": tuple(index)},
        )


def _is_call_to(node: ast.AST, fn: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == fn


def _constant_problem(value) -> str:
    if isinstance(value, bool):
        return "True and False are not numbers here; write 1.0 or 0.0"
    if isinstance(value, str | bytes):
        return "text in quotes is not a value; use numbers"
    if isinstance(value, complex):
        return "complex numbers are not supported; use real numbers"
    if value is None:
        return "None is not a value; use a number"
    return "this is not a number"


# ---------------------------------------------------------------------------------------------
# Writing.


def _right_side(node: Node) -> str:
    if node.kind == "input":
        return _value_text(node.value)
    if node.kind == "const":
        return f"const({_value_text(node.value)})"
    info = registry.OPS[node.op]
    operands = node.operands
    if info.symbol and info.arity == 2:
        return f"{operands[0]} {info.symbol} {operands[1]}"
    if info.symbol:
        return f"{info.symbol}{operands[0]}"
    if node.op == "index":
        return f"{operands[0]}[{', '.join(map(str, node.attrs['index']))}]"
    settings = [
        f"{a.name}={_attr_text(node.attrs[a.name])}" for a in info.attrs if a.name in node.attrs
    ]
    return f"{node.op}({', '.join([*operands, *settings])})"


def _value_text(value) -> str:
    if isinstance(value, dict):
        parts = [str(n) for n in value["shape"]]
        parts += [f"{key}={value[key]!r}" for key in GENERATORS[value["fn"]]]
        return f"{value['fn']}({', '.join(parts)})"
    return json.dumps(value)


def _attr_text(value) -> str:
    if isinstance(value, tuple) and len(value) == 1:
        return f"({value[0]!r},)"
    return repr(value)
