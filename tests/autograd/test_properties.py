"""Properties over random shapes and values (hypothesis), in the style of MyGrad's tests.

Values are drawn away from kinks (0 for abs and relu, ties for max), so that every op is smooth
where it is checked.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import autograd as ag
from tests.autograd.helpers import check_gradients

PROPERTY = settings(deadline=None, max_examples=100)

FLOATS = st.floats(-2.0, 2.0, allow_nan=False, allow_infinity=False, width=64)
SMALL_SHAPES = hnp.array_shapes(min_dims=0, max_dims=4, min_side=1, max_side=4)


def arrays_of(shape, elements=FLOATS):
    return hnp.arrays(np.float64, shape, elements=elements)


def away_from_zero():
    return st.one_of(st.floats(0.1, 2.0), st.floats(-2.0, -0.1))


def sum_to_shape(array, shape):
    """Sum a broadcast array back to ``shape`` (the adjoint of broadcasting)."""
    while array.ndim > len(shape):
        array = array.sum(axis=0)
    axes = tuple(i for i, size in enumerate(shape) if size == 1 and array.shape[i] != 1)
    return array.sum(axis=axes, keepdims=True)


def grads(fn, arrays, upstream):
    """The engine's gradients of ``sum(fn(*leaves) * upstream)``, as arrays."""
    leaves = [ag.tensor(a, requires_grad=True) for a in arrays]
    fn(*leaves).backward(upstream)
    return [leaf.grad.data for leaf in leaves]


@st.composite
def broadcast_pair(draw, elements=FLOATS):
    """Two arrays whose shapes broadcast together, and a random upstream gradient for the result."""
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4,
                                                    max_side=3))
    x = draw(arrays_of(shapes.input_shapes[0], elements))
    y = draw(arrays_of(shapes.input_shapes[1], elements))
    upstream = draw(arrays_of(shapes.result_shape))
    return x, y, upstream


@PROPERTY
@given(broadcast_pair(elements=away_from_zero()))
def test_gradient_of_a_sum_of_ops_is_the_sum_of_their_gradients(pair):
    x, y, upstream = pair

    def f(a, b):
        return a * b + a.tanh()

    def g(a, b):
        return (a / b).relu() - b.abs() * a.exp()

    together = grads(lambda a, b: f(a, b) + g(a, b), [x, y], upstream)
    for combined, one, other in zip(together, grads(f, [x, y], upstream),
                                    grads(g, [x, y], upstream), strict=True):
        np.testing.assert_allclose(combined, one + other, rtol=1e-12, atol=1e-12)


BINARY = {
    "add": (lambda a, b: a + b, lambda x, y, u: (u, u)),
    "sub": (lambda a, b: a - b, lambda x, y, u: (u, -u)),
    "mul": (lambda a, b: a * b, lambda x, y, u: (u * y, u * x)),
    "div": (lambda a, b: a / b, lambda x, y, u: (u / y, -u * x / y**2)),
    "maximum": (ag.maximum,
                lambda x, y, u: (u * ((x > y) + 0.5 * (x == y)), u * ((x < y) + 0.5 * (x == y)))),
    "minimum": (ag.minimum,
                lambda x, y, u: (u * ((x < y) + 0.5 * (x == y)), u * ((x > y) + 0.5 * (x == y)))),
}


@PROPERTY
@given(broadcast_pair(elements=st.one_of(st.sampled_from([0.5, 1.0, 2.0]), st.floats(0.5, 2.0))),
       st.sampled_from(sorted(BINARY)))
def test_broadcasting_ops_reduce_each_gradient_to_its_inputs_shape(pair, name):
    x, y, upstream = pair
    fn, local = BINARY[name]
    gx, gy = grads(fn, [x, y], upstream)
    bx, by = np.broadcast_arrays(x, y)
    ex, ey = local(bx, by, upstream)
    assert gx.shape == x.shape and gy.shape == y.shape
    np.testing.assert_allclose(gx, sum_to_shape(ex, x.shape), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(gy, sum_to_shape(ey, y.shape), rtol=1e-12, atol=1e-12)


@PROPERTY
@given(st.data())
def test_reshape_round_trip_restores_values_and_passes_the_gradient_through(data):
    shape = data.draw(SMALL_SHAPES)
    x = data.draw(arrays_of(shape))
    new_shape = tuple(data.draw(st.permutations(shape))) + (1,) * data.draw(st.integers(0, 2))
    t = ag.tensor(x, requires_grad=True)
    reshaped = t.reshape(new_shape)
    np.testing.assert_array_equal(reshaped.data, x.reshape(new_shape))
    back = reshaped.reshape(shape)
    np.testing.assert_array_equal(back.data, x)
    upstream = data.draw(arrays_of(shape))
    back.backward(upstream)
    np.testing.assert_array_equal(t.grad.data, upstream)


@PROPERTY
@given(st.data())
def test_transpose_round_trip_restores_values_and_passes_the_gradient_through(data):
    shape = data.draw(SMALL_SHAPES)
    x = data.draw(arrays_of(shape))
    axes = tuple(data.draw(st.permutations(range(len(shape)))))
    inverse = tuple(np.argsort(axes))
    negative = data.draw(st.lists(st.booleans(), min_size=len(shape), max_size=len(shape)))
    spelled = tuple(a - len(shape) if n else a for a, n in zip(axes, negative))
    t = ag.tensor(x, requires_grad=True)
    permuted = t.permute(*spelled)
    np.testing.assert_array_equal(permuted.data, np.transpose(x, axes))
    np.testing.assert_array_equal(t.permute(axes).data, np.transpose(x, axes))
    back = permuted.permute(inverse)
    np.testing.assert_array_equal(back.data, x)
    upstream = data.draw(arrays_of(np.transpose(x, axes).shape))
    permuted.backward(upstream)
    np.testing.assert_array_equal(t.grad.data, np.transpose(upstream, inverse))


@PROPERTY
@given(arrays_of(SMALL_SHAPES))
def test_T_reverses_axes_and_transpose_swaps_the_last_two(x):
    t = ag.tensor(x)
    np.testing.assert_array_equal(t.T.data, x.T)
    swapped = np.swapaxes(x, -1, -2) if x.ndim > 1 else x
    np.testing.assert_array_equal(t.transpose().data, swapped)
    np.testing.assert_array_equal(t.T.T.data, x)


@st.composite
def array_and_axes(draw, elements=FLOATS, unique=False):
    shape = draw(SMALL_SHAPES)
    x = draw(hnp.arrays(np.float64, shape, elements=elements, unique=unique))
    ndim = len(shape)
    axes = [st.none()]
    if ndim:
        axes += [st.integers(-ndim, ndim - 1), hnp.valid_tuple_axes(ndim, min_size=1)]
    axis = draw(st.one_of(*axes))
    return x, axis, draw(st.booleans())


@PROPERTY
@given(array_and_axes(), st.sampled_from(["sum", "mean"]), st.integers(0, 2**32 - 1))
def test_sum_and_mean_over_any_axes_match_numpy(case, name, seed):
    x, axis, keepdims = case
    t = ag.tensor(x, requires_grad=True)
    out = getattr(t, name)(axis=axis, keepdims=keepdims)
    expected = getattr(np, name)(x, axis=axis, keepdims=keepdims)
    assert out.shape == expected.shape
    np.testing.assert_allclose(out.data, expected, rtol=1e-12, atol=1e-12)
    upstream = np.random.default_rng(seed).standard_normal(out.shape)
    out.backward(upstream)
    kept = np.sum(x, axis=axis, keepdims=True).shape
    scale = 1.0 if name == "sum" else np.prod(kept) / x.size
    expected_grad = np.broadcast_to(np.reshape(upstream, kept), x.shape) * scale
    np.testing.assert_allclose(t.grad.data, expected_grad, rtol=1e-12, atol=1e-12)


@PROPERTY
@given(array_and_axes(elements=st.floats(-100, 100, width=64), unique=True),
       st.sampled_from(["max", "min"]), st.integers(0, 2**32 - 1))
def test_max_and_min_over_any_axes_match_numpy_and_route_the_gradient_to_the_extreme(
    case, name, seed
):
    x, axis, keepdims = case
    t = ag.tensor(x, requires_grad=True)
    out = getattr(t, name)(axis=axis, keepdims=keepdims)
    expected = getattr(np, name)(x, axis=axis, keepdims=keepdims)
    np.testing.assert_array_equal(out.data, expected)
    upstream = np.random.default_rng(seed).standard_normal(out.shape)
    out.backward(upstream)
    extreme = getattr(np, name)(x, axis=axis, keepdims=True)
    kept = extreme.shape
    expected_grad = (x == extreme) * np.broadcast_to(np.reshape(upstream, kept), x.shape)
    np.testing.assert_array_equal(t.grad.data, expected_grad)


@PROPERTY
@given(hnp.mutually_broadcastable_shapes(signature="(m?,n),(n,p?)->(m?,p?)", max_dims=4,
                                         max_side=3),
       st.integers(0, 2**32 - 1))
def test_matmul_of_any_compatible_shapes_matches_numpy_and_finite_differences(shapes, seed):
    rng = np.random.default_rng(seed)
    a_shape, b_shape = shapes.input_shapes
    a, b = rng.standard_normal(a_shape), rng.standard_normal(b_shape)
    out = ag.tensor(a) @ ag.tensor(b)
    np.testing.assert_allclose(out.data, np.matmul(a, b), rtol=1e-12, atol=1e-12)
    check_gradients(lambda x, y: x @ y, a, b, rng=rng)


@PROPERTY
@given(arrays_of(hnp.array_shapes(min_dims=1, max_dims=3, max_side=5),
                 st.floats(-50, 50, width=64)),
       st.floats(-1000, 1000), st.data())
def test_softmax_is_a_distribution_unchanged_by_a_shift(x, shift, data):
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    s = ag.tensor(x).softmax(axis=axis).data
    np.testing.assert_allclose(s.sum(axis=axis), 1.0, rtol=1e-12)
    assert np.all(s >= 0)
    np.testing.assert_allclose(ag.tensor(x + shift).softmax(axis=axis).data, s, atol=1e-12)
    log_s = ag.tensor(x + shift).log_softmax(axis=axis).data
    np.testing.assert_allclose(np.exp(log_s), s, atol=1e-12)
    lse = ag.tensor(x + shift).logsumexp(axis=axis).data
    np.testing.assert_allclose(lse - shift, ag.tensor(x).logsumexp(axis=axis).data,
                               rtol=1e-12, atol=1e-9)


@PROPERTY
@given(st.integers(1, 8).flatmap(lambda n: st.tuples(
    st.just(n), st.slices(n).filter(lambda s: s.step is None or s.step > 0))),
       st.integers(0, 2**32 - 1))
def test_slicing_scatters_the_gradient_back_to_the_sliced_positions(size_and_slice, seed):
    size, key = size_and_slice
    rng = np.random.default_rng(seed)
    x = ag.tensor(rng.standard_normal(size), requires_grad=True)
    out = x[key]
    np.testing.assert_array_equal(out.data, x.data[key])
    upstream = rng.standard_normal(out.shape)
    out.backward(upstream)
    expected = np.zeros(size)
    expected[key] += upstream
    np.testing.assert_array_equal(x.grad.data, expected)


@PROPERTY
@given(st.lists(st.integers(-5, 4), min_size=1, max_size=12), st.integers(0, 2**32 - 1))
def test_integer_indexing_accumulates_the_gradient_of_repeated_indices(indices, seed):
    rng = np.random.default_rng(seed)
    x = ag.tensor(rng.standard_normal(5), requires_grad=True)
    key = np.array(indices)
    out = x[key]
    np.testing.assert_array_equal(out.data, x.data[key])
    upstream = rng.standard_normal(len(indices))
    out.backward(upstream)
    expected = np.zeros(5)
    np.add.at(expected, key, upstream)
    np.testing.assert_allclose(x.grad.data, expected, rtol=1e-12, atol=1e-12)


@PROPERTY
@given(st.lists(st.integers(1, 3), min_size=1, max_size=4), st.integers(0, 2), st.data())
def test_concatenate_gradient_splits_the_upstream_gradient(sizes, axis, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    shapes = [tuple(size if i == axis else 2 for i in range(3)) for size in sizes]
    leaves = [ag.tensor(rng.standard_normal(s), requires_grad=True) for s in shapes]
    out = ag.concatenate(leaves, axis=axis)
    np.testing.assert_array_equal(out.data, np.concatenate([t.data for t in leaves], axis=axis))
    upstream = rng.standard_normal(out.shape)
    out.backward(upstream)
    pieces = np.split(upstream, np.cumsum(sizes)[:-1], axis=axis)
    for leaf, piece in zip(leaves, pieces, strict=True):
        np.testing.assert_array_equal(leaf.grad.data, piece)


@PROPERTY
@given(broadcast_pair(elements=st.floats(0.5, 2.0)), st.integers(0, 2**32 - 1))
def test_smooth_compositions_match_finite_differences(pair, seed):
    x, y, _ = pair
    check_gradients(lambda a, b: (a * b).sigmoid() * (b / a).log() + (a - b).sin(), x, y,
                    rng=np.random.default_rng(seed))
