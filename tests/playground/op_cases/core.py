"""Test cases of the first ops: one CASES entry per op (gradient, second-order and forward-mode
checks) and programs that use every op (the PyTorch-oracle export tests)."""

import numpy as np

X = np.array([[0.5, -1.2, 2.0], [0.3, 0.8, -0.4]])
Y = np.array([[1.5, 0.7, -0.9], [-2.0, 0.6, 1.1]])
P = np.array([[0.2, 0.7, 0.5], [0.1, 0.9, 0.4]])
T = np.array([[0.0, 1.0, 1.0], [0.0, 1.0, 0.0]])


def _softmax(z, axis=-1):
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


# op -> (operand arrays, attrs, NumPy reference, indices of operands that require grad)
CASES = {
    "add": ((X, Y), {}, lambda a, b: a + b, (0, 1)),
    "sub": ((X, Y), {}, lambda a, b: a - b, (0, 1)),
    "mul": ((X, Y), {}, lambda a, b: a * b, (0, 1)),
    "div": ((X, Y), {}, lambda a, b: a / b, (0, 1)),
    "pow": ((P, Y), {}, lambda a, b: a**b, (0, 1)),
    "matmul": ((X, Y.T), {}, lambda a, b: a @ b, (0, 1)),
    "neg": ((X,), {}, lambda a: -a, (0,)),
    "exp": ((X,), {}, np.exp, (0,)),
    "log": ((P,), {}, np.log, (0,)),
    "sqrt": ((P,), {}, np.sqrt, (0,)),
    "square": ((X,), {}, np.square, (0,)),
    "abs": ((X,), {}, np.abs, (0,)),
    "sign": ((X,), {}, np.sign, (0,)),
    "sin": ((X,), {}, np.sin, (0,)),
    "cos": ((X,), {}, np.cos, (0,)),
    "tanh": ((X,), {}, np.tanh, (0,)),
    "sigmoid": ((X,), {}, lambda a: 1 / (1 + np.exp(-a)), (0,)),
    "relu": ((X,), {}, lambda a: np.maximum(a, 0), (0,)),
    "leaky_relu": ((X,), {"negative_slope": 0.1}, lambda a: np.where(a > 0, a, 0.1 * a), (0,)),
    "softmax": ((X,), {"axis": 0}, lambda a: _softmax(a, axis=0), (0,)),
    "log_softmax": ((X,), {}, lambda a: np.log(_softmax(a)), (0,)),
    "logsumexp": ((X,), {}, lambda a: np.log(np.exp(a).sum(axis=-1)), (0,)),
    "sum": ((X,), {"axis": 1, "keepdims": True}, lambda a: a.sum(axis=1, keepdims=True), (0,)),
    "mean": ((X,), {"axis": (0, 1)}, lambda a: a.mean(), (0,)),
    "max": ((X,), {"axis": 1}, lambda a: a.max(axis=1), (0,)),
    "min": ((X,), {}, lambda a: a.min(), (0,)),
    "reshape": ((X,), {"shape": (3, -1)}, lambda a: a.reshape(3, 2), (0,)),
    "transpose": ((X,), {}, lambda a: a.T, (0,)),
    "where": ((T, X, Y), {}, lambda c, a, b: np.where(c != 0, a, b), (1, 2)),
    "linear": ((X, Y, X[:, 0]), {}, lambda a, w, b: a @ w.T + b, (0, 1, 2)),
    "flatten": ((X,), {}, lambda a: a.ravel(), (0,)),
    "squeeze": ((X[:1],), {"axis": 0}, lambda a: a[0], (0,)),
    "unsqueeze": ((X,), {"axis": 1}, lambda a: a[:, None, :], (0,)),
    "broadcast_to": ((X[0],), {"shape": (4, 3)}, lambda a: np.tile(a, (4, 1)), (0,)),
    "index": ((X,), {"index": (1, -1)}, lambda a: a[1, -1], (0,)),
    "stack": ((X, Y), {"axis": 1}, lambda a, b: np.stack([a, b], axis=1), (0, 1)),
    "concatenate": ((X, Y), {}, lambda a, b: np.concatenate([a, b]), (0, 1)),
    "maximum": ((X, Y), {}, np.maximum, (0, 1)),
    "minimum": ((X, Y), {}, np.minimum, (0, 1)),
    "clip": ((X,), {"min": -1.0, "max": 1.0}, lambda a: np.clip(a, -1, 1), (0,)),
    "mse_loss": ((X, Y), {}, lambda a, b: ((a - b) ** 2).mean(), (0,)),
    "cross_entropy": (
        (X, np.array([2.0, 0.0])),
        {},
        lambda z, t: -np.log(_softmax(z))[[0, 1], [2, 0]].mean(),
        (0,),
    ),
    "binary_cross_entropy": (
        (P, T),
        {},
        lambda p, t: -(t * np.log(p) + (1 - t) * np.log(1 - p)).mean(),
        (0,),
    ),
}

ELEMENTWISE = """\
x = [0.5, 1.5, 2.5]
y = [2.0, -1.0, 0.5]
a = x + y
s = x - y
m = x * y
d = x / y
p = x ** y
n = -x
e = exp(x)
l = log(x)
r = sqrt(x)
sq = square(y)
ab = abs(y)
si = sin(x)
co = cos(x)
t = tanh(y)
sg = sigmoid(y)
re = relu(y)
lr = leaky_relu(y, negative_slope=0.1)
mx = maximum(x, y)
mn = minimum(x, y)
cl = clip(y, min=-0.5, max=1.0)
lo = clip(y, min=0.0)
sn = sign(y) * x
c = [1.0, 0.0, 2.0]
wh = where(c, x, y)
part = a + s + m + d + p + n + e + l + r + ab + si + co + t + sg + re + lr + mx + mn + cl
total = sum(part + lo + sn + wh + sq)
"""

SHAPES = """\
A = [[1.0, -2.0, 0.5], [0.3, 0.8, -1.1]]
B = randn(3, 4, seed=3)
C = A @ B
sm = softmax(C, axis=0)
ls = log_softmax(C)
lse = logsumexp(C, axis=1, keepdims=True)
su = sum(C, axis=1)
me = mean(C, axis=(0, 1), keepdims=True)
ma = mean(C)
mx = max(C, axis=0)
mn = min(C)
mk = max(C, keepdims=True)
rs = reshape(C, shape=(4, -1))
tr = transpose(C)
tp = transpose(rs, axes=(1, 0))
T3 = rand(2, 3, 2, seed=4)
t3 = transpose(T3)
t3p = transpose(T3, axes=(0, -1))
t3q = transpose(T3, axes=(2, 0, 1))
fl = flatten(C)
sq = squeeze(lse, axis=1)
sq2 = squeeze(me)
us = unsqueeze(su, axis=0)
bt = broadcast_to(us, shape=(3, 2))
ix = C[1, 2]
row = C[0]
st = stack(su, sq, axis=1)
ct = concatenate(fl, sum(tr, axis=1))
L = sum(sm * ls) + sum(lse) + sum(su * su) + sum(me) + ma + sum(mx) + mn + sum(mk) + sum(rs * rs) + sum(tp * tp) + sum(t3 * t3) + sum(t3p * t3p) + sum(t3q * t3q) + sum(sq2 * sq) + sum(bt * bt) + ix + sum(row) + sum(st * st) + sum(ct * ct)
"""  # noqa: E501

LOSSES = """\
pred = [[0.2, -0.4, 1.0], [0.7, 0.1, -0.3]]
target = [[0.0, 1.0, 0.5], [1.0, -1.0, 0.2]]
m = mse_loss(pred, target)
labels = [2.0, 0.0]
ce = cross_entropy(pred, labels)
q = sigmoid(pred)
t01 = [[0.0, 1.0, 1.0], [1.0, 0.0, 0.5]]
b = binary_cross_entropy(q, t01)
W = [[0.5, -1.0, 0.2], [0.3, 0.8, -0.6]]
bias = [0.1, -0.2]
lin = linear(pred, W, bias)
L = m + ce + b + sum(lin * lin)
"""

PROGRAMS = {"elementwise": ELEMENTWISE, "shapes": SHAPES, "losses": LOSSES}
