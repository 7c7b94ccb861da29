"""autograd.format: one way to write a number, an array and a shape, wherever they are shown."""

import numpy as np

from autograd.format import (
    SMALL_TENSOR,
    SUMMARY_ENTRIES,
    array_lines,
    array_text,
    index_text,
    labelled,
    number,
    shape_text,
    summary_lines,
)


def test_numbers_use_four_decimals_or_scientific_notation():
    assert number(0.7071067811865476) == "0.7071"
    assert number(-1.5) == "-1.5000"
    assert number(0) == "0.0000"
    assert number(1e10) == "1e+10"
    assert number(2.5e-7) == "2.5e-07"
    assert number(float("nan")) == "nan"
    assert number(float("-inf")) == "-inf"
    assert number(np.float32(2.0)) == "2.0000"


def test_a_scalar_is_one_number_and_a_small_vector_one_bracketed_line():
    assert array_lines(np.array(2.0)) == ["2.0000"]
    assert array_lines(np.array([2.0])) == ["[2.0000]"]
    assert array_lines(np.array([True, False])) == ["[1.0000, 0.0000]"]
    assert array_lines(np.zeros((0, 3))) == ["[]"]


def test_small_matrix_prints_row_by_row_left_aligned():
    assert array_lines(np.array([[0.5, -1.0], [2.0, 0.1]])) == [
        "[[0.5000, -1.0000]",
        " [2.0000, 0.1000]]",
    ]


def test_a_tensor_above_the_small_size_is_summarised():
    assert len(array_lines(np.arange(float(SMALL_TENSOR)).reshape(3, 3))) == 3
    lines = array_lines(np.arange(100.0))
    assert lines == summary_lines(np.arange(100.0))
    assert lines == ["min 0.0000  mean 49.5000  max 99.0000",
                     "[0.0000, 1.0000, 2.0000, 3.0000, …]"]
    assert lines[-1].split(", ")[SUMMARY_ENTRIES:] == ["…]"]
    few = array_lines(np.arange(float(SUMMARY_ENTRIES)), max_elements=2)
    assert few[0].startswith("min ") and not few[-1].endswith("…]")  # nothing left out


def test_summary_counts_entries_that_are_not_finite():
    lines = array_lines(np.array([1.0, np.nan, np.inf, 3.0] * 5))
    assert lines[0] == "min 1.0000  mean 2.0000  max 3.0000"
    assert lines[1] == "10 of 20 not finite"
    assert summary_lines(np.full(12, np.nan))[0] == "12 of 12 not finite"


def test_array_text_is_the_lines_on_one_line_and_empty_for_no_array():
    assert array_text(np.array([[0.5, -1.0], [2.0, 0.1]])) == (
        "[[0.5000, -1.0000] [2.0000, 0.1000]]"
    )
    assert "\n" not in array_text(np.arange(100.0))
    assert array_text(np.array(3.0)) == "3.0000"
    assert array_text(None) == ""


def test_a_label_sits_before_one_line_and_above_several():
    assert labelled("grad", ["4.0000"]) == ["grad 4.0000"]
    assert labelled("value", ["[[1.0000]", " [2.0000]]"]) == ["value", "[[1.0000]", " [2.0000]]"]


def test_shapes_and_indices_are_written_for_people():
    assert shape_text(()) == "scalar"
    assert shape_text((3,)) == "(3,)"
    assert shape_text(np.zeros((2, 3)).shape) == "(2, 3)"
    assert index_text(()) == "scalar"
    assert index_text((0, 1)) == "[0, 1]"
