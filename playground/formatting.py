"""How the pages write numbers, arrays, shapes and indices: the engine's own formatter
(``autograd.format``), so that a number reads the same in a notebook, a drawing, a table and a
page. The pages take it from here; they never import ``autograd``."""

from autograd.format import array_text, index_text, number, shape_text

__all__ = ["array_text", "index_text", "number", "shape_text"]
