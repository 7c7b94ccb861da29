"""The test command's own option: `bash tests/run.sh --update-screenshots` (or any pytest
arguments with it) refreshes the screenshots under docs/ that the README and docs/screens.md
show, from the browser tests that take them (tests/e2e/e2e_helpers.shoot)."""

from __future__ import annotations

import os


def pytest_addoption(parser) -> None:
    parser.addoption("--update-screenshots", action="store_true",
                     help="copy the browser tests' screenshots into docs/")


def pytest_configure(config) -> None:
    if config.getoption("--update-screenshots"):
        os.environ["UPDATE_SCREENSHOTS"] = "1"
