"""The test command's own option: `bash tests/run.sh --update-screenshots` (or any pytest
arguments with it) refreshes the screenshots under docs/ that the README and docs/screens.md
show, from the browser tests that take them (tests/e2e/e2e_helpers.shoot)."""

from __future__ import annotations

import importlib.util
import os

import pytest


def pytest_addoption(parser) -> None:
    parser.addoption("--update-screenshots", action="store_true",
                     help="copy the browser tests' screenshots into docs/")


def pytest_configure(config) -> None:
    if config.getoption("--update-screenshots"):
        os.environ["UPDATE_SCREENSHOTS"] = "1"


def pytest_runtest_setup(item) -> None:
    """A test marked `torch` compares against PyTorch, a test oracle the engine never needs: it is
    skipped where PyTorch is not installed."""
    if item.get_closest_marker("torch") and importlib.util.find_spec("torch") is None:
        pytest.skip("compares against PyTorch, which is not installed")
