"""Share links: compact, URL-safe, deterministic, and read back exactly."""

import re

import pytest

from playground.errors import SpecError
from playground.expr import parse
from playground.share import PREFIX, decode, encode

MLP = """\
# two-layer MLP on four points, softmax cross-entropy
X = const([[0.5, -1.2], [1.0, 0.3], [-0.7, 0.8], [0.2, 0.1]])
y = const([0, 1, 1, 0])
W1 = randn(2, 8, seed=0)
b1 = zeros(8)
W2 = randn(8, 2, seed=1)
b2 = zeros(2)
h = tanh(X @ W1 + b1)
logits = h @ W2 + b2
L = cross_entropy(logits, y)
"""


def test_a_link_is_the_prefix_and_url_safe_characters_without_padding():
    link = encode(parse(MLP))
    assert link.startswith("v1.")
    assert re.fullmatch(r"v1\.[A-Za-z0-9_-]+", link)


def test_a_link_reads_back_to_the_same_spec():
    spec = parse(MLP + "output(h)\n")
    assert decode(encode(spec)) == spec
    assert decode(encode(spec)).output == "h"


def test_a_two_layer_mlp_fits_in_a_few_hundred_characters():
    assert len(encode(parse(MLP))) < 500


def test_a_500_node_graph_still_fits_the_link_limit():
    text = "x = 0.5\n" + "".join(f"h{i} = tanh(x * {i % 7 + 1})\n" for i in range(166))
    spec = parse(text)
    assert len(spec) > 490
    assert decode(encode(spec)) == spec


def test_the_same_spec_always_gives_the_same_link():
    assert encode(parse(MLP)) == encode(parse(MLP))


def test_surrounding_whitespace_from_copy_and_paste_is_ignored():
    spec = parse(MLP)
    assert decode(f"  {encode(spec)}\n") == spec


def test_a_link_from_another_version_says_so():
    with pytest.raises(SpecError, match=r"made by another version of the playground \(v2\)"):
        decode("v2." + encode(parse(MLP))[len(PREFIX) :])
