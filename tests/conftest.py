"""Fixtures shared by every test directory: a seeded random generator and PyTorch as an oracle."""

import numpy as np
import pytest


@pytest.fixture
def rng():
    """A NumPy generator with a fixed seed, so every run draws the same numbers."""
    return np.random.default_rng(20240601)


@pytest.fixture
def torch():
    """PyTorch, or a clean skip where it is not installed (a test oracle, not a dependency)."""
    return pytest.importorskip("torch")
