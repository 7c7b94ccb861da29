"""Fixtures for the engine's tests."""

import numpy as np
import pytest


@pytest.fixture
def rng():
    """A NumPy generator with a fixed seed, so every run draws the same numbers."""
    return np.random.default_rng(20240601)


def pytest_generate_tests(metafunc):
    """A test class with a table of cases (``NumpyChecks``, ``TorchChecks``) runs each of its
    tests that takes ``case`` once per case of the table the test applies to."""
    cases_for = getattr(metafunc.cls, "cases_for", None)
    if cases_for is not None and "case" in metafunc.fixturenames:
        cases = cases_for(metafunc.function.__name__)
        metafunc.parametrize("case", cases, ids=[case.id for case in cases])
