"""The hostile corpus: what a stranger with the link might type, paste or put in a URL, at every
door of the app, and how to push each case through its door in AppTest.

Text goes in whole with `set_value`, as a forged request would send it (a browser's text box
stops at its `max_chars`; AppTest's `input` does too). Streamlit cuts a text widget's value at
its `max_chars` on the server as well, so such text reaches the model cut (TEXT_LIMITS).

Used by test_hostile_corpus.py (each case: a specific message, no exception, the graph kept) and
by benchmarks/hostile.py (each case's server time). A case is (door, payload, expected): the
door says where the payload goes, `expected` is a fragment the page's message must contain, or
ACCEPTED for a graph the limits allow (the page then shows it, with any NaN/inf flag), or MODEL
when the message must be exactly the one the model gives for the same input.
"""

from __future__ import annotations

import base64
import json
import zlib
from dataclasses import dataclass

from app_helpers import new_app, run, start
from streamlit.testing.v1 import AppTest

from pages.ui import keys
from playground import limits, parse, presets, share

ACCEPTED = "<accepted>"
MODEL = "<the model's own message>"
SAFE = "<no exception, only finite numbers>"
"""For values a widget itself may refuse or replace (a NaN typed into a number box)."""
TEXT_LIMITS = {"expression": limits.MAX_TEXT_CHARS, "add_list": limits.MAX_TEXT_CHARS,
               "edit_value": limits.MAX_TEXT_CHARS, "add_name": limits.MAX_NAME_CHARS,
               "edit_rename": limits.MAX_NAME_CHARS, "import_paste": limits.MAX_JSON_CHARS}
"""Door -> the `max_chars` of its text box, where Streamlit cuts what a request sends."""
DEFAULT = presets.get(presets.DEFAULT_KEY).spec
LINK = share.encode(DEFAULT)


@dataclass(frozen=True)
class Case:
    door: str
    payload: object
    expected: str = MODEL

    @property
    def id(self) -> str:
        text = repr(self.payload)
        return f"{self.door}:{text[:50]}" + (f"…({len(text)})" if len(text) > 50 else "")


# --- payloads --------------------------------------------------------------------------------

CODE = [
    "__import__('os').system('touch /tmp/pwned')",
    "__import__('os')",
    "().__class__.__bases__[0].__subclasses__()",
    "x.__class__.__mro__",
    "tanh.__globals__",
    "getattr(x, '__globals__')",
    "eval('1 + 1')",
    "exec('import os')",
    "compile('1', 'f', 'eval')",
    "open('/etc/passwd')",
    "globals()",
    "vars()",
    "locals()",
    "breakpoint()",
    "print(1)",
    "input()",
    "exit()",
    "lambda: 0",
    "(lambda: __import__('os'))()",
    "(y := 1.0)",
    "f'{1}'",
    "f'{__import__(\"os\").system(\"id\")}'",
    "tanh(*[x])",
    "sum(x, **{'axis': 0})",
    "[i for i in range(3)]",
    "{i: i for i in range(3)}",
    "sum(i for i in range(9))",
    "x if x else x",
    "x and x",
    "not x",
    "x < x",
    "x.real",
    "x.T",
    "tanh.__call__(x)",
    "[tanh][0](x)",
    "(tanh)(x)",
    "x(x)",
    "__builtins__",
    "__loader__",
    "__debug__",
    "x[::2]",
    "x[...]",
    "x[x]",
    "b'1'",
    "'text'",
    "1j",
    "True",
    "None",
    "...",
    "ｅｖａｌ('1')",  # full-width letters: Python reads them as eval
    "еxp(x)",  # a Cyrillic е
    "ехр(x)",  # all Cyrillic
    "t\u200banh(x)",  # a zero-width space
    "tanh\u00a0(x)",  # a no-break space
    "`x`",
    "x // x",
    "x % x",
    "x ^ x",
    "~x",
    "x << 1",
    "await x",
    "yield x",
    "super().__init__()",
    "type(x)",
    "object.__subclasses__()",
    "import os",
]
CODE_STATEMENTS = [
    "import os",
    "from os import system",
    "def f(): return 1",
    "async def f(): pass",
    "class A: pass",
    "for i in range(3): pass",
    "while True: pass",
    "with open('f') as f: pass",
    "try:\n    x = 1\nexcept: pass",
    "global x",
    "del x",
    "assert x",
    "raise SystemExit",
    "x += 1",
    "x: int = 1",
    "x = y = 1.0",
    "x, y = 1.0, 2.0",
    "x.y = 1.0",
    "x[0] = 1.0",
    "if x: pass",
    "pass",
    "return x",
    "@eval\ndef f(): pass",
    "match x:\n    case 1: pass",
    "exec",
    "x = 1.0; import os",
    "x = 1.0\x00",
    "x = 1.0 \\\n + 1",
    "\ufeffx = 1.0\ny = x + __import__('os')",
]
PLAIN_MATHS = {"(tanh)(x)", "x = 1.0 \\\n + 1"}
"""Payloads above that only look odd: they are plain maths, and the graph takes them."""
MARKUP = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "[click](javascript:alert(1))",
    "![x](https://evil.example/x.png)",
    "$\\href{javascript:alert(1)}{x}$",
    "$$\\begin{matrix}x\\end{matrix}$$",
    ":red[alert] :material/warning:",
    "` [x](javascript:alert(1)) `",
    "**bold** <b>b</b> # h",
    "https://evil.example/phish",
]
INJECTIONS = [
    "x\n\n![pixel](https://evil.example/pixel.png)",
    "x\n\n[click](https://evil.example/phish)",
    "x\r\n\r\n<img src=https://evil.example/p.png>",
    "x\n\n<https://evil.example/autolink>",
    "x\n\n[r]: https://evil.example/ref\n\n[r]",
    "x\n\n# h\n\n| a |\n|---|\n| [t](https://evil.example/t) |",
    "x\n\n$\\href{https://evil.example}{x}$",
    "x\n\n:red[alert] :smile: :material/home:",
    "x\n\n    https://evil.example/indented",
    "x\n\n- [l](https://evil.example/list)",
    "x\n\n<div>www.evil.example a@evil.example</div>",
    "x\n\n```\n![f](https://evil.example/fence.png)",
    "x\n\n" + "![big](https://evil.example/big.png) " * 300,
]
"""Payloads for a code span of a message: a blank line ends a code span and the paragraph, so
whatever follows would be Markdown again (a link, a tracking pixel, raw HTML, a table)."""

# --- expression editor -----------------------------------------------------------------------


def _lines(n: int, stem: str = "h", op: str = "tanh", first: str = "x") -> str:
    return "".join(f"{stem}{i} = {op}({first if i == 0 else f'{stem}{i - 1}'})\n"
                   for i in range(n))


def _sum(terms: int) -> str:
    return "a = 1.0\nb = " + " + ".join(["a"] * terms) + "\n"


EXPRESSIONS = [
    *[Case("expression", f"x = 1.0\ny = {code}\n", ACCEPTED if code in PLAIN_MATHS else MODEL)
      for code in CODE],
    *[Case("expression", statement, ACCEPTED if statement in PLAIN_MATHS else MODEL)
      for statement in CODE_STATEMENTS],
    *[Case("expression", f"x = 1.0\ny = {markup}\n") for markup in MARKUP],
    *[Case("expression", f"x = 1.0\n{markup} = x\n") for markup in MARKUP],
    # resources
    Case("expression", "x = zeros(1000, 1000)\n" + _lines(60), "elements together"),
    Case("expression", "x = zeros(1000, 1000)\n" + _lines(1_000), "elements together"),
    Case("expression", "a = randn(1000, 1000, seed=0)\nm0 = a @ a\nm1 = m0 @ a\n",
         "units of work"),
    Case("expression", "a = randn(500, 500, seed=0)\n" + "".join(
        f"e{i} = einsum({'a' if i == 0 else f'e{i - 1}'}, a, equation='ij,jk->ik')\n"
        for i in range(8)), "units of work"),
    Case("expression", "x = zeros(1000, 1000)\n" + "".join(f"s{i} = sum(x)\n" for i in range(30)),
         "units of work"),
    Case("expression", "x = 2 ** 10 ** 10\n", ACCEPTED),
    Case("expression", "x = 9 ** 9 ** 9 ** 9\n", ACCEPTED),
    Case("expression", "x = 1.0\ny = x ** 10 ** 10\n", ACCEPTED),
    Case("expression", "x = 1.0\ny = x ** 1000\n", ACCEPTED),
    Case("expression", "x = 1.0\ny = x ** 1001\n", "constant exponents are limited"),
    Case("expression", "x = 1.0\ny = x ** 1e308\n", "constant exponents are limited"),
    Case("expression", "x = " + "9" * 5_000 + "\n", "Exceeds the limit"),
    Case("expression", "x = 1e400\n", "not a finite number"),
    Case("expression", "x = " + "(" * 1_000 + "1" + ")" * 1_000 + "\n",
         f"brackets are nested more than {limits.MAX_BRACKET_DEPTH} deep"),
    Case("expression", "x = " + "(" * limits.MAX_BRACKET_DEPTH + "1.0"
         + ")" * limits.MAX_BRACKET_DEPTH + "\n", ACCEPTED),
    Case("expression", "x = " + "(" * (limits.MAX_BRACKET_DEPTH + 1) + "1.0"
         + ")" * (limits.MAX_BRACKET_DEPTH + 1) + "\n", "brackets are nested more than"),
    Case("expression", "x = " + "[" * 100 + "1" + "]" * 100 + "\n", "brackets are nested"),
    Case("expression", "x = 1.0\ny = " + "-" * 1_000 + "x\n", "nested"),
    Case("expression", "x = 1.0\ny = " + "+".join(["x"] * 20_000) + "\n", "nested"),
    Case("expression", "x = 1.0\ny = " + "tanh(" * 39 + "x" + ")" * 39 + "\n", ACCEPTED),
    Case("expression", _sum(limits.MAX_EXPR_DEPTH), ACCEPTED),
    Case("expression", _sum(limits.MAX_EXPR_DEPTH + 1),
         f"nested more than {limits.MAX_EXPR_DEPTH} levels deep"),
    Case("expression", "x = 1.0\n" + _lines(limits.MAX_NODES - 1, first="x"), ACCEPTED),
    Case("expression", "x = 1.0\n" + _lines(limits.MAX_NODES, first="x"),
         f"more than {limits.MAX_NODES:,} nodes"),
    Case("expression", "x = 1.0\n" * 7_000),  # longer than the box: Streamlit cuts it there
    Case("expression", "#" * 1_000_000),
    Case("expression", "x = " + "1.0 + " * 9_000 + "1.0\n"),
    Case("expression", "x = zeros(1000, 1000)\n", ACCEPTED),
    Case("expression", "x = zeros(1000, 1001)\n", "more than the limit of 1,000,000"),
    Case("expression", "x = zeros(100000, 100000, 100000)\n", "more than the limit"),
    Case("expression", "x = ones(" + ", ".join(["1"] * limits.MAX_NDIM) + ")\n", ACCEPTED),
    Case("expression", "x = ones(" + ", ".join(["1"] * (limits.MAX_NDIM + 1)) + ")\n",
         f"more than {limits.MAX_NDIM} dimensions"),
    Case("expression", "x = zeros(0, 3)\n", "sizes of at least 1"),
    Case("expression", "x = zeros(-1)\n", "whole numbers written out"),
    Case("expression", f"x = randn(3, seed={limits.MAX_SEED})\n", ACCEPTED),
    Case("expression", f"x = randn(3, seed={limits.MAX_SEED + 1})\n", "the seed of randn"),
    Case("expression", "x = randn(3, seed=-1)\n", "the seed of randn"),
    Case("expression", "x = full(3, value=1e400)\n", "not a finite number"),
    Case("expression", "x = randn(2.5)\n", "whole numbers written out"),
    Case("expression", "x = 1.0\ny = broadcast_to(x, shape=(99999, 99999))\n",
         "more than 1,000,000 elements"),
    Case("expression", "x = 1.0\ny = sum(x, axis=10 ** 100)\n", "must be written out"),
    Case("expression", "x = 1.0\ny = x[" + "9" * 30 + "]\n", "far outside any tensor"),
    Case("expression", "x = [1.0, 2.0]\ny = x[5]\n", "index"),
    Case("expression", "a = zeros(1000, 1)\nb = zeros(2000)\nc = a + b\n", "would broadcast"),
    Case("expression", "x = [" + ", ".join(["1.0"] * 9_000) + "]\n", ACCEPTED),
    Case("expression", "x = 1.0\ny = [" + ", ".join(["x"] * 300) + "]\n",
         "stack reads 300 operands, more than the limit of 256 for one node"),
    Case("expression", "x = 1.0\n" + "".join(f"s{i} = [" + ", ".join(["x"] * 256) + "]\n"
                                              for i in range(24)),
         "read 6,144 operands together, more than the limit of 6,000 edges for one graph"),
    Case("expression", "x = [[1.0, 2.0], [3.0]]\n", "ragged"),
    Case("expression", "x = []\n", "empty"),
    Case("expression", "x = [1.0, 'a']\n", "text in quotes"),
    Case("expression", f"{'n' * limits.MAX_NAME_CHARS} = 1.0\n", ACCEPTED),
    Case("expression", f"{'n' * (limits.MAX_NAME_CHARS + 1)} = 1.0\n",
         f"longer than {limits.MAX_NAME_CHARS} characters"),
    Case("expression", "x = 1.0\nx = 2.0\n", "already defined"),
    Case("expression", "y = x + 1.0\nx = 1.0\n", "used before it is defined"),
    Case("expression", "tanh = 1.0\n", "is an op"),
    Case("expression", "x = 1.0\noutput(x)\noutput(x)\n", "already chosen"),
    Case("expression", "x = 1.0\noutput(z)\n", "not defined"),
    Case("expression", "", ACCEPTED),  # an empty program empties the graph; Undo brings it back
    Case("expression", "   \n\n", ACCEPTED),
    Case("expression", "x = 1.0\ny = x +\n", "not valid syntax"),
    Case("expression", "x = 1.0\ny = tanh(x\n", "not valid syntax"),
    Case("expression", "x = 1.0\n\ty = x\n", "not valid syntax"),
    # numerical traps: legal graphs, flagged where NaN or inf appears
    Case("expression", "x = 1e308\ny = x * 10.0\n", ACCEPTED),
    Case("expression", "x = 0.0\ny = log(x)\n", ACCEPTED),
    Case("expression", "x = -1.0\ny = sqrt(x)\n", ACCEPTED),
    Case("expression", "x = 1000.0\ny = exp(x)\n", ACCEPTED),
    Case("expression", "x = 0.0\ny = 1.0 / x\n", ACCEPTED),
    Case("expression", "x = 0.0\ny = x ** -1.0\n", ACCEPTED),
    Case("expression", "x = 0.0\ny = x ** 0.5\n", ACCEPTED),
    Case("expression", "x = 1e-320\ny = x * x\n", ACCEPTED),
    Case("expression", "x = -0.0\ny = 1.0 / x\n", ACCEPTED),
    Case("expression", "x = [1e308, -1e308]\ny = sum(x * 10.0)\n", ACCEPTED),
    Case("expression", "x = [1000.0, 0.0]\ny = softmax(x)\n", ACCEPTED),
    Case("expression", "z = [[1.0, 2.0]]\nt = [0.5]\nL = cross_entropy(z, t)\n", "whole-number"),
    Case("expression", "x = nan\n", "not defined"),
    Case("expression", "x = inf\n", "not defined"),
    Case("expression", "x = float('nan')\n", "not a function"),
]

# --- the add-node and edit forms -------------------------------------------------------------

NAMES = [
    "__class__", "__import__", "_", "1x", "x-y", "x y", "", "   ", "tanh", "const", "output",
    "lambda", "import", "None", "True", "ｘ", "е", "x\u200b", "x\x00", "a" * 64, "a" * 65,
    "a" * 10_000, *MARKUP, "a`b", "d", *INJECTIONS,
]
LIST_VALUES = [
    "[1, 2", "[[1, 2], [3]]", "[]", "[[]]", "'abc'", "[1, 'a']", "[1, None]", "[True]",
    "[1e400]", "[nan]", "[inf, 1]", "float('nan')", "__import__('os')", "[1, 2][0]", "[1, 2] * 3",
    "[" * 9 + "1" + "]" * 9, "[" * 50 + "1" + "]" * 50, "[" * 41 + "]" * 41, "1 +", "{1: 2}",
    "randn(1000, 1001)", "randn(3, seed=-1)", "[[1, 2], [3, 4]]", "-2.5", "randn(3, 2, seed=0)",
    "[" + ", ".join(["1"] * 5000) + "]", "9" * 5000, "1" * 60_000, "x = 1", "lambda: 1",
    *MARKUP,
]
NUMBERS = [float("nan"), float("inf"), float("-inf"), 1e308, -1e308, 5e-324, -0.0, 0.0]


def _add_kind(at: AppTest, kind: str) -> None:
    at.segmented_control(key=keys.ADD_KIND).set_value(kind)
    run(at)


def _add_value_as(at: AppTest, kind: str, mode: str) -> None:
    """Open the Add form for an input or constant whose value is given as `mode` (number, list,
    generator), so the form shows that mode's fields."""
    _add_kind(at, kind)
    at.segmented_control(key=keys.value_part(keys.ADD_VALUE, "mode")).set_value(mode)
    run(at)


def add_name(at: AppTest, name: str) -> None:
    _add_kind(at, "input")
    at.text_input(key=keys.ADD_NAME).set_value(name)
    at.button(key=keys.ADD_GO).click()


def add_list(at: AppTest, text: str) -> None:
    _add_value_as(at, "input", "list")
    at.text_input(key=keys.value_part(keys.ADD_VALUE, "list")).set_value(text)
    at.text_input(key=keys.ADD_NAME).set_value("v")
    at.button(key=keys.ADD_GO).click()


def add_number(at: AppTest, value: float) -> None:
    _add_value_as(at, "const", "number")
    at.number_input(key=keys.value_part(keys.ADD_VALUE, "number")).set_value(value)
    at.text_input(key=keys.ADD_NAME).input("k")
    at.button(key=keys.ADD_GO).click()


def add_generator(at: AppTest, payload) -> None:
    fn, shape, extra = payload
    _add_value_as(at, "input", "generator")
    at.selectbox(key=keys.value_part(keys.ADD_VALUE, "fn")).set_value(fn)
    shape_key = keys.value_part(keys.ADD_VALUE, "shape")
    at.number_input(key=keys.count(shape_key)).set_value(len(shape))
    run(at)
    for i, n in enumerate(shape):
        at.number_input(key=keys.entry(shape_key, i)).set_value(n)
    for part, value in extra.items():
        at.number_input(key=keys.value_part(keys.ADD_VALUE, part)).set_value(value)
    at.text_input(key=keys.ADD_NAME).input("g")
    at.button(key=keys.ADD_GO).click()


def add_op(at: AppTest, payload) -> None:
    op, operands, attrs = payload
    at.selectbox(key=keys.ADD_OP).set_value(op)
    run(at)
    for i, name in enumerate(operands):
        at.selectbox(key=keys.add_operand(len(operands), i)).set_value(name)
    for name, value in attrs.items():
        key = keys.attr(keys.ADD_ATTR, op, name)
        if isinstance(value, tuple):
            at.number_input(key=keys.count(key)).set_value(len(value))
            run(at)
            for i, n in enumerate(value):
                at.number_input(key=keys.entry(key, i)).set_value(n)
        else:
            at.number_input(key=key).set_value(value)
    at.text_input(key=keys.ADD_NAME).input("o")
    at.button(key=keys.ADD_GO).click()


def edit_rename(at: AppTest, new: str) -> None:
    at.selectbox(key=keys.EDIT_NODE).set_value("a")
    run(at)
    at.text_input(key=keys.EDIT_NEW_NAME).set_value(new)
    at.button(key=keys.EDIT_RENAME).click()


def edit_value(at: AppTest, text: str) -> None:
    at.selectbox(key=keys.EDIT_NODE).set_value("a")
    run(at)
    prefix = keys.edit_value("a")
    at.segmented_control(key=keys.value_part(prefix, "mode")).set_value("list")
    run(at)
    at.text_input(key=keys.value_part(prefix, "list")).set_value(text)
    at.button(key=keys.EDIT_SET_VALUE).click()


def expression(at: AppTest, text: str) -> None:
    at.text_area(key=keys.EXPR_TEXT).set_value(text)
    at.button(key=keys.EXPR_APPLY).click()


FORMS = [
    *[Case("add_name", name) for name in NAMES],
    *[Case("add_list", text) for text in LIST_VALUES],
    *[Case("add_number", value, SAFE) for value in NUMBERS],
    Case("add_generator", ("randn", (1000, 1001), {"seed": 0}), "1,001,000 elements"),
    Case("add_generator", ("zeros", (1000, 1000, 1000, 1000), {}), "more than the limit"),
    Case("add_generator", ("randn", (3,), {"seed": limits.MAX_SEED}), ACCEPTED),
    Case("add_generator", ("full", (2, 2), {"fill": float("inf")}), SAFE),
    Case("add_generator", ("full", (2, 2), {"fill": float("nan")}), SAFE),
    Case("add_generator", ("ones", (1000, 1000), {}), ACCEPTED),
    Case("add_op", ("reshape", ("a",), {"shape": (7,)}), "reshape"),
    Case("add_op", ("reshape", ("a",), {"shape": (1000, 1000, 1000)}), MODEL),
    Case("add_op", ("broadcast_to", ("a",), {"shape": (1000, 1001)}), "1,000,000"),
    Case("add_op", ("broadcast_to", ("a",), {"shape": (1000, 1000)}), ACCEPTED),
    Case("add_op", ("index", ("a",), {"index": (5,)}), "index"),
    Case("add_op", ("index", ("a",), {"index": (-1_000_000,)}), "index"),
    Case("add_op", ("unsqueeze", ("a",), {"axis": 8}), MODEL),
    Case("add_op", ("softmax", ("a",), {"axis": -8}), MODEL),
    Case("add_op", ("leaky_relu", ("a",), {"negative_slope": float("nan")}), SAFE),
    Case("add_op", ("leaky_relu", ("a",), {"negative_slope": 1e307}), ACCEPTED),
    Case("add_op", ("matmul", ("a", "b"), {}), "matmul"),
    *[Case("edit_rename", name) for name in NAMES],
    *[Case("edit_value", text) for text in LIST_VALUES[:20]],
    Case("expression", "x = ones(" + ", ".join(["1"] * 8) + ")\ny = 2.0 * x\n", ACCEPTED),
    Case("expression", "x = randn(2, 2, 2, 2, 2, seed=1)\n", ACCEPTED),
    Case("expression", "x = [" + ", ".join(["1.5"] * 12_000) + "]\n", MODEL),
]

# --- JSON import -----------------------------------------------------------------------------

GOOD_DOC = DEFAULT.to_json()


def _doc(**changes) -> str:
    doc = json.loads(GOOD_DOC)
    doc.update(changes)
    return json.dumps(doc)


def _node_doc(node: dict) -> str:
    return json.dumps({"version": 1, "nodes": [{"name": "x", "kind": "input", "value": 1.0},
                                               node]})


DOCUMENTS = [
    "", "   ", "{", "[", "]", "null", "1", '"graph"', "[]", "{}", "true", "NaN",
    '{"version": 1}', '{"nodes": []}', '{"version": 2, "nodes": []}', '{"version": 0, "nodes": []}',
    '{"version": "1", "nodes": []}', '{"version": 1.0, "nodes": []}',
    '{"version": true, "nodes": []}',
    '{"version": 1, "nodes": {}}', '{"version": 1, "nodes": [1]}', '{"version": 1, "nodes": null}',
    '{"version": 1, "nodes": [], "extra": 1}', '{"version": 1, "nodes": [], "output": 5}',
    '{"version": 1, "nodes": [], "output": "ghost"}',
    '{"version": 1, "version": 2, "nodes": []}',
    '{"version": 1, "nodes": [{"name": "x", "kind": "input", "value": NaN}]}',
    '{"version": 1, "nodes": [{"name": "x", "kind": "input", "value": Infinity}]}',
    '{"version": 1, "nodes": [{"name": "x", "kind": "input", "value": -Infinity}]}',
    '{"version": 1, "nodes": [{"name": "x", "kind": "input", "value": 1e999}]}',
    '{"version": 1, "nodes": [{"name": "x", "kind": "input", "value": 1, "value": 2}]}',
    _node_doc({"name": "y", "kind": "op", "op": "__import__", "operands": ["x"]}),
    _node_doc({"name": "y", "kind": "op", "op": "eval", "operands": ["x"]}),
    _node_doc({"name": "y", "kind": "op", "op": "tanh", "operands": "x"}),
    _node_doc({"name": "y", "kind": "op", "op": "tanh", "operands": ["y"]}),
    _node_doc({"name": "y", "kind": "op", "op": "tanh", "operands": ["z"]}),
    _node_doc({"name": "y", "kind": "op", "op": "tanh", "operands": [["x"]]}),
    _node_doc({"name": "y", "kind": "op", "op": "tanh", "operands": ["x"], "attrs": [1]}),
    _node_doc({"name": "y", "kind": "op", "op": "sum", "operands": ["x"],
               "attrs": {"axis": "$x$"}}),
    _node_doc({"name": "y", "kind": "op", "op": "sum", "operands": ["x"],
               "attrs": {"<img src=x onerror=alert(1)>": 1}}),
    _node_doc({"name": "y", "kind": "op", "op": "tanh", "operands": ["x"], "code": "import os"}),
    _node_doc({"name": "y", "kind": "evil", "value": 1.0}),
    _node_doc({"name": "y", "kind": "input", "value": "1 + 1"}),
    _node_doc({"name": "y", "kind": "input", "value": {"fn": "eval", "shape": [1]}}),
    _node_doc({"name": "y", "kind": "input", "value": {"fn": "randn", "shape": [10**9]}}),
    _node_doc({"name": "y", "kind": "input", "value": {"fn": "randn", "shape": [2],
                                                        "seed": 10**30}}),
    _node_doc({"name": "y", "kind": "input", "value": [[1], [1, 2]]}),
    _node_doc({"name": "y", "kind": "input", "value": []}),
    _node_doc({"name": "y", "kind": "input", "value": True}),
    _node_doc({"name": "y", "kind": "input", "value": None}),
    _node_doc({"name": 5, "kind": "input", "value": 1.0}),
    _node_doc({"name": "x", "kind": "input", "value": 1.0}),
    _node_doc({"name": "__class__", "kind": "input", "value": 1.0}),
    _node_doc({"name": "\ud800", "kind": "input", "value": 1.0}),
    _node_doc({"name": "y", "kind": "\ud800", "value": 1.0}),
    _node_doc({"\ud800`[x](javascript:alert(1))`": 1, "name": "y", "kind": "input",
               "value": 1.0}),
    *[_node_doc({"name": "y", "kind": markup, "value": 1.0}) for markup in MARKUP],
    *[_node_doc({"name": markup, "kind": "input", "value": 1.0}) for markup in MARKUP[:4]],
    *[_node_doc({"name": text, "kind": "input", "value": 1.0, "extra": 1}) for text in INJECTIONS],
    *[_node_doc({"name": text, "kind": "input", "value": 1.0}) for text in INJECTIONS[:4]],
    *[_node_doc({"name": "y", "kind": "op", "op": "tanh", "operands": [text]})
      for text in INJECTIONS[:3]],
    *[_node_doc({"name": "y", "kind": text, "value": 1.0}) for text in INJECTIONS[:2]],
    *[_node_doc({text[:30]: 1, "name": "y", "kind": "input", "value": 1.0})
      for text in INJECTIONS[:4]],
    *[json.dumps({"version": 1, "nodes": [], "output": text}) for text in INJECTIONS[:2]],
    "[" * 100_000 + "]" * 100_000,
    '{"a":' * 50_000 + "1" + "}" * 50_000,
    json.dumps({"version": 1, "nodes": [{"name": f"n{i}", "kind": "input", "value": 1.0}
                                         for i in range(limits.MAX_NODES + 1)]}),
    json.dumps({"version": 1, "nodes": [{"name": f"x{i}", "kind": "input",
                                         "value": {"fn": "zeros", "shape": [1000, 1000]}}
                                        for i in range(6)]}),
    GOOD_DOC[:-5],
    GOOD_DOC.replace('"version":1', '"version":1,"version":1'),
    "\ufeff" + parse("x = 2.0\ny = x * x\n").to_json(),
    " " * (limits.MAX_JSON_CHARS + 1),
    json.dumps({"version": 1, "nodes": [{"name": "long", "kind": "input",
                                         "value": [1.5] * 12_000}]}),
    json.dumps({"version": 1, "nodes": [{"name": "x", "kind": "input", "value": 1.0}, *[
        {"name": f"s{i}", "kind": "op", "op": "stack", "operands": ["x"] * 2_000}
        for i in range(400)]]}),
    json.dumps({"version": 1, "nodes": [{"name": f"x{i}", "kind": "input",
                                         "value": [0.5] * 60_000} for i in range(10)]}),
]


def import_paste(at: AppTest, text: str) -> None:
    at.text_area(key=keys.IMPORT_TEXT).set_value(text)
    at.button(key=keys.IMPORT_GO).click()


def import_upload(at: AppTest, data: bytes) -> None:
    at.file_uploader(key=keys.IMPORT_FILE).set_value(("graph.json", data, "application/json"))
    at.button(key=keys.IMPORT_GO).click()


def _import_expected(text: str) -> str:
    if text in ("\ufeff" + parse("x = 2.0\ny = x * x\n").to_json(),):
        return ACCEPTED
    if not text.strip():
        return "paste its JSON"
    return MODEL


IMPORTS = [
    *[Case("import_paste", text, _import_expected(text)) for text in DOCUMENTS],
    *[Case("import_upload", text.encode("utf-8", "surrogatepass"), _import_expected(text))
      for text in DOCUMENTS[:40] if text.strip()],
    Case("import_upload", b"\xff\xfe\x00\x00", "not UTF-8"),
    Case("import_upload", zlib.compress(b"{" * 1000), "not UTF-8"),
    Case("import_upload", b"x" * (limits.MAX_JSON_CHARS + 1), "more than the limit"),
]

# --- links: the graph parameter and the display options ---------------------------------------


def _link_of(text: str) -> str:
    packed = zlib.compress(text.encode("utf-8", "surrogatepass"), 9)
    return "v1." + base64.urlsafe_b64encode(packed).decode().rstrip("=")


BOMB = "v1." + base64.urlsafe_b64encode(zlib.compress(b" " * 50_000_000, 9)).decode().rstrip("=")


def literal_link(numbers: int = 999_000, first: float = 1.5) -> str:
    """A link whose document holds one list of ``numbers`` numbers: 999,000 take 5 kB (issue 28:
    45 MiB per session, each kept in its undo history)."""
    return _link_of(json.dumps({"version": 1, "nodes": [
        {"name": "x", "kind": "input", "value": [first] + [1.5] * (numbers - 1)}]},
        separators=(",", ":")))


EDGE_BOMB = _link_of(json.dumps({"version": 1, "nodes": [
    {"name": "x", "kind": "input", "value": 1.0},
    *[{"name": f"s{i}", "kind": "op", "op": "stack", "operands": ["x"] * 2_000}
      for i in range(400)]]}, separators=(",", ":")))
"""A 7 kB link of 400 stack ops each reading x 2,000 times: 401 nodes, 800,000 edges."""
LITERAL_LINK = literal_link()
GRAPH_PARAMS = [
    "", " ", "v1.", "v1", "V1." + LINK[3:], "v2." + LINK[3:], "v0.abc", "v10.abc", "v1.!!!!",
    "v1.====", "v1." + "A" * 100, LINK[:10], LINK[:-3], LINK[:-1], LINK + "A", LINK + "==",
    LINK.replace("-", "+").replace("_", "/"), LINK.replace("v1.", "v1.%20"),
    LINK.upper(), LINK.lower(), "v1." + "A" * (limits.MAX_SHARE_CHARS + 1), BOMB,
    "javascript:alert(1)", "<script>alert(1)</script>", "$\\href{javascript:alert(1)}{x}$",
    "[x](javascript:alert(1))", "\x00", "%00", "v1." + "_" * 1000,
    _link_of("not json"), _link_of("[]"), _link_of('{"version": 1, "nodes": []}'),
    _link_of(_node_doc({"name": "y", "kind": "op", "op": "eval", "operands": ["x"]})),
    _link_of(DOCUMENTS[26]), _link_of("x" * 1000),
    *[_link_of(_node_doc({"name": text, "kind": "input", "value": 1.0, "extra": 1}))
      for text in INJECTIONS],
    share.encode(parse("x = zeros(1000, 1000)\n" + _lines(60))),
    share.encode(parse("a = randn(1000, 1000, seed=0)\n" + "".join(
        f"m{i} = sum({'a' if i == 0 else f'm{i - 1}'} @ a, axis=0, keepdims=True)\n"
        for i in range(10)))),
]
OPTION_PARAMS = [
    ("show", v) for v in ("", "all", "BOTH", "value ", "<script>", "$x$", "[x](javascript:x)",
                          "grad\x00", "x" * 100_000)
] + [
    ("dir", v) for v in ("", "lr", "sideways", "LR\n", ":material/home:", "`x`")
] + [
    ("font", v) for v in ("", "²", "9" * 5_000, "1e1", "٣٠", " 20", "-20", "0x14", "9", "41",
                          "20.0", "NaN", "inf", "+20", "2_0")
] + [
    ("compact", v) for v in ("", "2", "true", "yes", "-1", "1\n", "<b>1</b>")
] + [
    (name, v) for name in ("show", "dir", "font", "compact") for v in INJECTIONS[:4]
]


def open_link(graph: str) -> AppTest:
    return new_app(query={"graph": graph})


def open_option(param: tuple[str, str]) -> AppTest:
    name, value = param
    return new_app(query={"graph": LINK, name: value})


def open_train(param: tuple[str, str]) -> AppTest:
    name, value = param
    return new_app(query={name: value}, page="pages/train.py")


EXERCISE_PARAMS = [  # the exercise a link hides (`ex`): none of these names one
    "", "grad", "grad:", "grad:zzz", "grad:a,zzz", "value:" + "a," * 5_000, "tangent@zzz:c",
    "tangent@a:", "gradient:a", "<script>alert(1)</script>", "grad:[x](javascript:alert(1))",
    "grad:$\\href{javascript:alert(1)}{x}$", "grad:a\nb", "x" * 100_000,
    *["grad:" + text for text in INJECTIONS[:4]], *INJECTIONS[:2],
]
TRAIN_PARAMS = [
    (name, v) for name in ("data", "layers", "features", "lr", "seed")
    for v in (*INJECTIONS[:4], *MARKUP[:4])
]
LINKS = [
    *[Case("graph_param", g, "could not be opened") for g in GRAPH_PARAMS if g.strip()],
    Case("graph_param", LITERAL_LINK, "node `x`: the list holds 999,000 numbers written out, "
         "more than the limit of 100,000 for one graph"),
    Case("graph_param", EDGE_BOMB,
         "node `s0`: stack reads 2,000 operands, more than the limit of 256 for one node"),
    Case("graph_param", literal_link(limits.MAX_LITERAL_NUMBERS), ACCEPTED),
    *[Case("option_param", p, "Ignored link settings") for p in OPTION_PARAMS],
    *[Case("option_param", ("ex", e), "Ignored the link's exercise") for e in EXERCISE_PARAMS],
    *[Case("train_param", p, "Ignored link settings") for p in TRAIN_PARAMS],
]

DOORS = {
    "expression": expression,
    "add_name": add_name,
    "add_list": add_list,
    "add_number": add_number,
    "add_generator": add_generator,
    "add_op": add_op,
    "edit_rename": edit_rename,
    "edit_value": edit_value,
    "import_paste": import_paste,
    "import_upload": import_upload,
}
"""Door -> how a payload goes through it in a running session (then the session reruns)."""
NEW_SESSION_DOORS = {"graph_param": open_link, "option_param": open_option,
                     "train_param": open_train}
"""Door -> a new session opened with the payload in its URL."""

CASES = [*EXPRESSIONS, *FORMS, *IMPORTS, *LINKS]


def fresh_session() -> AppTest:
    """A session on the Build page with the default graph, as a student first sees it."""
    return start()
