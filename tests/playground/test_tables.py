"""pandas tables of an evaluated graph: one row per node, and one row per element of a node."""

import math

import numpy as np
import pytest

from playground import evaluate, parse
from playground.errors import SpecError
from playground.presets import get
from playground.tables import element_table, matrix_frame, node_table


def test_the_node_table_has_one_row_per_node_in_spec_order_with_the_agreed_columns():
    table = node_table(evaluate(get("classic").spec))
    assert list(table.columns) == ["name", "kind", "op", "shape", "value", "gradient",
                                   "grad_norm", "flag"]
    assert table.to_dict("records") == [
        {"name": "a", "kind": "input", "op": "", "shape": "scalar", "value": "2.0000",
         "gradient": "4.0000", "grad_norm": 4.0, "flag": ""},
        {"name": "b", "kind": "input", "op": "", "shape": "scalar", "value": "3.0000",
         "gradient": "2.0000", "grad_norm": 2.0, "flag": ""},
        {"name": "c", "kind": "op", "op": "mul", "shape": "scalar", "value": "6.0000",
         "gradient": "1.0000", "grad_norm": 1.0, "flag": ""},
        {"name": "d", "kind": "op", "op": "add", "shape": "scalar", "value": "8.0000",
         "gradient": "1.0000", "grad_norm": 1.0, "flag": ""},
    ]


def test_the_gradient_norm_is_the_euclidean_norm_and_stays_numeric():
    table = node_table(evaluate(get("vectors").spec)).set_index("name")
    assert table["grad_norm"].dtype == np.float64
    assert table.loc["a", "grad_norm"] == pytest.approx(math.sqrt(12**2 + 10**2), abs=1e-12)
    assert table.loc["a", "value"] == "[2.0000, 3.0000]"
    assert table.loc["a", "shape"] == "(2,)"


def test_constants_have_an_empty_gradient_and_a_nan_norm():
    table = node_table(evaluate(get("two_paths").spec)).set_index("name")
    assert table.loc["c_1", "kind"] == "const"
    assert table.loc["c_1", "gradient"] == ""
    assert np.isnan(table.loc["c_1", "grad_norm"])


def test_a_flagged_node_carries_its_message_and_the_others_none():
    result = evaluate(get("softmax_naive").spec)
    table = node_table(result).set_index("name")
    assert table.loc["e", "flag"] == result.flags["e"]
    assert (table.drop(index="e")["flag"] == "").all()
    assert table.loc["e", "value"] == "[inf, inf, inf]"


def test_a_large_tensor_is_summarised_in_one_line():
    table = node_table(evaluate(parse("x = randn(10, 10, seed=0)\ny = sum(x)")))
    value = table.loc[0, "value"]
    assert value.startswith("min ") and "mean" in value and "max" in value
    assert "\n" not in value


def test_the_element_table_lists_each_element_with_its_position_value_and_gradient():
    table = element_table(evaluate(get("broadcast").spec), "col")
    assert list(table.columns) == ["axis_0", "axis_1", "value", "grad"]
    assert table["axis_0"].tolist() == [0, 1, 2]
    assert table["axis_1"].tolist() == [0, 0, 0]
    assert table["value"].tolist() == [1.0, 2.0, 3.0]
    assert table["grad"].tolist() == [4.0, 4.0, 4.0]


def test_the_element_table_positions_are_integers_in_numpys_order():
    result = evaluate(parse("W = randn(2, 3, 12, seed=0)\nL = sum(W * W)"))
    table = element_table(result, "W")
    assert table.dtypes.astype(str).tolist() == ["int64", "int64", "int64", "float64", "float64"]
    positions = table[["axis_0", "axis_1", "axis_2"]].to_numpy()
    assert [tuple(p) for p in positions] == list(np.ndindex(2, 3, 12))
    np.testing.assert_array_equal(table["value"], result.value("W").ravel())
    np.testing.assert_array_equal(table["grad"], 2 * result.value("W").ravel())


def test_the_element_table_of_a_scalar_has_one_row_and_no_position():
    table = element_table(evaluate(get("classic").spec), "a")
    assert table.to_dict("records") == [{"value": 2.0, "grad": 4.0}]


def test_the_element_table_of_a_constant_has_nan_gradients():
    table = element_table(evaluate(get("logistic").spec), "y")
    assert table["value"].tolist() == [1.0, 1.0, 1.0, 0.0]
    assert table["grad"].isna().all()


def test_the_element_table_of_an_unknown_node_is_refused():
    with pytest.raises(SpecError, match="no node called 'nope'"):
        element_table(evaluate(get("classic").spec), "nope")


def test_a_matrix_frame_lays_a_matrix_out_as_it_prints():
    frame = matrix_frame(np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]]))
    assert list(frame.columns) == ["row", "column", "number"]
    assert frame.dtypes.astype(str).tolist() == ["int64", "int64", "float64"]
    assert frame.to_dict("records") == [
        {"row": 0, "column": 0, "number": 1.0},
        {"row": 0, "column": 1, "number": -2.0},
        {"row": 0, "column": 2, "number": 3.0},
        {"row": 1, "column": 0, "number": 4.0},
        {"row": 1, "column": 1, "number": 5.0},
        {"row": 1, "column": 2, "number": -6.0},
    ]
    assert "note" not in frame.attrs


def test_a_matrix_frame_shows_a_vector_as_one_row_and_a_scalar_as_one_cell():
    vector = matrix_frame(np.array([7.0, 8.0, 9.0]))
    assert vector["row"].tolist() == [0, 0, 0]
    assert vector["column"].tolist() == [0, 1, 2]
    assert vector["number"].tolist() == [7.0, 8.0, 9.0]
    assert matrix_frame(np.float64(2.5)).to_dict("records") == [
        {"row": 0, "column": 0, "number": 2.5}
    ]


def test_a_matrix_frame_stacks_the_leading_axes_of_a_larger_tensor_as_rows():
    x = np.arange(24.0).reshape(2, 3, 4)
    frame = matrix_frame(x)
    assert (frame["row"].max() + 1, frame["column"].max() + 1) == (6, 4)
    for record in frame.to_dict("records"):
        r, c = record["row"], record["column"]
        assert record["number"] == x[r // 3, r % 3, c]
    assert frame.attrs["note"] == (
        "The (2, 3, 4) tensor is drawn as 6 rows of 4: the rows run through its leading axes "
        "(2, 3) in order, the last of them fastest; the columns are its last axis."
    )
