"""Fixtures for the engine's tests."""

import numpy as np
import pytest


@pytest.fixture
def rng():
    """A NumPy generator with a fixed seed, so every run draws the same numbers."""
    return np.random.default_rng(20240601)
