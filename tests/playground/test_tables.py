"""pandas tables of an evaluated graph: one row per node, and one row per element of a node."""

import math

import numpy as np
import pytest

from playground import evaluate, parse
from playground.errors import SpecError
from playground.presets import get
from playground.tables import element_table, node_table


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


def test_the_element_table_lists_each_element_with_its_index_value_and_gradient():
    table = element_table(evaluate(get("broadcast").spec), "col")
    assert list(table.columns) == ["index", "value", "grad"]
    assert table["index"].tolist() == ["(0, 0)", "(1, 0)", "(2, 0)"]
    assert table["value"].tolist() == [1.0, 2.0, 3.0]
    assert table["grad"].tolist() == [4.0, 4.0, 4.0]


def test_the_element_table_of_a_scalar_has_one_row():
    table = element_table(evaluate(get("classic").spec), "a")
    assert table.to_dict("records") == [{"index": "()", "value": 2.0, "grad": 4.0}]


def test_the_element_table_of_a_constant_has_nan_gradients():
    table = element_table(evaluate(get("logistic").spec), "y")
    assert table["value"].tolist() == [1.0, 1.0, 1.0, 0.0]
    assert table["grad"].isna().all()


def test_the_element_table_of_an_unknown_node_is_refused():
    with pytest.raises(SpecError, match="no node called 'nope'"):
        element_table(evaluate(get("classic").spec), "nope")
