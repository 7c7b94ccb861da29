"""Share links made on 2026-11-24 (format v1) keep opening, whatever the spec format becomes.

Each link below was made by `share.encode` then and is pinned here with the graph it opened, in
the expression language. A change of format adds a reader to `share.READERS` and keeps the old
ones: these links must still open to the same graphs. Never regenerate them.
"""

import pytest

from playground import parse, share

PINNED = {
    'classic': (
        'v1.eNp1jTsOhDAMRO8ydbSC3S5XQRRmnSICnCgQGsTd11DwWUFjjeX3PDMmlwYfBLY0kMBugK1mCPUOFgSD1gtr9'
        'BLzqOtEXdbT-1UsZueaR-5z4b4HF6JmHRZ97rboEgmv9Vttg_ok8p1IzH_i-p9UrJcfLO5BPA',
        'a = 2.0\n'
        'b = 3.0\n'
        'c = a * b\n'
        'd = c + a\n',
    ),
    'neuron': (
        'v1.eNqNkEsOgjAQhu8yaySUimCvQliUtIlEmBJemhDu7oAmtmiNm2aafv-jM8Oku74yCIIFgEbpHkQ-A8pGg4A7g'
        'wCuFSqaK2zHga6TrEd6i8NoCd5g7AUjB7z5HQ_cJf2WzAFLL3cKs4zxlCdZGrFzcuR2Y2ZXMS3NdAhoxnobdSdRr'
        'ct4LoHgwvmvXe-neuUILnbZPgep1Ef-1nQT2C74v_wVVjp6800_SLzsDJBUxfIA1e-kaw',
        'x1 = 2.0\n'
        'x2 = 0.0\n'
        'w1 = -3.0\n'
        'w2 = 1.0\n'
        'b = 6.881373587019543\n'
        'x1w1 = x1 * w1\n'
        'x2w2 = x2 * w2\n'
        'x1w1x2w2 = x1w1 + x2w2\n'
        'n = x1w1x2w2 + b\n'
        'o = tanh(n)\n',
    ),
    'mlp': (
        'v1.eNqVkdFugzAMRf_Fz9EEYbzwDX3fJISq0KQFDRxEQiWG-PeaVqUGMXU8AHGse3x9GeBqWldahCQUgFYbB0k6A'
        'KraQALfIOCnRE3Hk0XnqbyqqqPWAGfSQKtQI926QjV0m36KKKPKGJIE4yhmUv8nKQ0-AiHpCR_fjKm-wpesxKZ7b'
        'yAS8Wwg5Abyt6hf01rHUHHG9bXydVcdGcU2dKbXs3evzGRoyvCeHfnn6yittwHUWKnZuHwJKbYAXmGxIjyGLdKUe'
        '9OM2e-UizTl3jSjrTTlv9OctiP_fJ3KXkrvdsU5zcuXlMMW4ETe3dGgb23Tr1Dz2J442XgDy_f_7g',
        'X = const(randn(4, 3, seed=0))\n'
        'y = const([0.0, 2.0, 1.0, 2.0])\n'
        'W1 = randn(3, 5, seed=1)\n'
        'b1 = zeros(5)\n'
        'matmul_1 = X @ W1\n'
        'add_1 = matmul_1 + b1\n'
        'h = tanh(add_1)\n'
        'W2 = randn(5, 3, seed=2)\n'
        'b2 = zeros(3)\n'
        'matmul_2 = h @ W2\n'
        'logits = matmul_2 + b2\n'
        'L = cross_entropy(logits, y)\n',
    ),
    'broadcast': (
        'v1.eNp1jjEKwzAMRe-i2QQ76eQz9AbGg6k8mCZysOp0CLl75FDaUNrl8T_iob_CEgunTGCNAsoYGaxbgcIUwcItj'
        '6DgngilJJrrQ-oSxipH50ynvXL9wUHoN_U2S37-N43utOobhoaL4Ozyx8yzZIGFgHjEWAJhG_ka1x6d5esvmev0J'
        'bNIftsBP1RMJQ',
        'col = [[1.0], [2.0], [3.0]]\n'
        'row = [10.0, 20.0, 30.0, 40.0]\n'
        's = col + row\n'
        'L = sum(s)\n',
    ),
    'softmax_stable': (
        'v1.eNptkE0OwiAQhe8ya9JAlz2DN2iIwTAqsQXSvxgb7u7YVi2UDTOTx_fewAwTdr1xFirBwDqNPVT1DFa1CBW8g'
        'MHDWE2tsX4caJxUM5JUC855wRkVsZay4DKwH9qq51n8ceepp2MRlhY7ZfUnjVL2YH831wF1Du3HywFlW9LeAnMwP'
        'n0Cf5Oi9LHNr01CgmME-hykzXSA2JYRwWWOphnTv_IgGahh6GiatxtVXcqwc2vcLf8GElK7MtrjlKMsptQaIIMMb'
        '_9brvU',
        'z = [1000.0, 1001.0, 1002.0]\n'
        'max_1 = max(z)\n'
        'shifted = z - max_1\n'
        'e = exp(shifted)\n'
        'sum_1 = sum(e)\n'
        'p = e / sum_1\n'
        'p2 = p[2]\n'
        'log_1 = log(p2)\n'
        'L = -log_1\n',
    ),
    'chosen_output': (
        'v1.eNp1j8EKgzAQRP9lzkGMvfkrIiVgilLdBGO0Kvn3biy0QewlTLL7ZiY7Zj26zhBKKUCm0Q5ltYPUoFHiBYFnR'
        'w3Ljqyf-Dqr3vOoklkuiiyvg_huL3-3dzw4AaOihvjVtcpGj6JmrTUDt5D4DL6_y5-Xsaz5OAaH1NEoFj0KLkhLr'
        'Feg88MJ_GSk4HYFToraE7kyxb2Nn-IXY2B4A-ruZB8',
        'x = [1.0, 2.0]\n'
        'w = randn(2, seed=3)\n'
        'mul_1 = x * w\n'
        'y = sum(mul_1)\n'
        'z = tanh(y)\n'
        'output(y)\n',
    ),
    'generators': (
        'v1.eNqFkDsOgzAMhu_iOaoKVVUpV0EZAjEqauJEhDAU5e41DBDUgcXy6__8WGDGMQ6eQFYCyBuMIJsFSDsECRoEf'
        'AYy7A4U0sThrG3i0gI9a6BP1nIyvnXgZFOLWu0t91v9zFnssPaAdZ7iP8wTTy9gqlR3V6t8cfQnuahOAHMFGDWZQ'
        'v_gSyIi979KDB4YH9hnI8HpySW7Rbhi1iduz2tBZZV_y0NujQ',
        'a = full(2, 2, value=0.25)\n'
        'b = const(ones(2))\n'
        'c = zeros(2, 1)\n'
        'd = rand(3, seed=7)\n'
        'e = a @ b\n',
    ),
    'attributes': (
        'v1.eNqN0UuOgzAMANC7eJ0ZAd1xlQpVUXE7FvkpH0SFcvc6rWZKpYjOhtgGPydkhRl9IGugbwUYO2KA_riCkRqhh'
        'wUETGRGDsm4FDmdpUr8aoUL94CXZjRcDT_ScfXYicPAGSK3tDmLPym8JOs45gcXk36EWJgymAdyu4zRhzJCLsRrw'
        '52IbiTNSfQJt26suZG94GzAD_rjsK1ohq3oa6LH5wn3vN9_cBBf7ZtINZFzXHa95xdlg90bp2qcQjndTh5V2jUNX'
        'mWkGU9B2bLZ5rvb0ucafVbkdlFNpkjNVpqq920vUcvlP3ee85DvbiLSMA',
        'x = randn(2, 3, seed=1)\n'
        's = sum(x, axis=0, keepdims=True)\n'
        't = transpose(x, axes=(1, 0))\n'
        'r = reshape(x, shape=(3, -1))\n'
        'i = x[1, 2]\n'
        'l = leaky_relu(x, negative_slope=0.2)\n'
        'c = clip(x, min=0.0)\n'
        'k = softmax(x, axis=0)\n',
    ),
}


@pytest.mark.parametrize("key", list(PINNED))
def test_a_link_made_today_opens_the_same_graph(key):
    link, text = PINNED[key]
    assert share.decode(link) == parse(text)
    assert share.decode(link).to_text() == text


def test_every_link_version_ever_written_has_a_reader():
    assert set(share.READERS) >= {"v1"}
    assert share.PREFIX.removesuffix(".") in share.READERS
