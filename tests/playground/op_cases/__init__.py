"""Test cases for every registry op, one module per family of ops (``core`` holds the first).

Each module defines ``CASES`` (op -> (operand arrays, attrs, NumPy reference, indices of
operands that require grad)) and ``PROGRAMS`` (name -> expression-language text using its ops).
A new module here is picked up without further edits.
"""

import importlib
import pkgutil

_MODULES = [importlib.import_module(f"{__name__}.{info.name}")
            for info in pkgutil.iter_modules(__path__)]

CASES = {name: case for module in _MODULES for name, case in module.CASES.items()}
PROGRAMS = {name: text for module in _MODULES for name, text in module.PROGRAMS.items()}
