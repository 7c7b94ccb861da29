"""Fixtures for the AppTest tests."""

import pytest
from app_helpers import new_app, run


@pytest.fixture
def app():
    """The app after its first run, on the default page with the default graph."""
    return run(new_app())
