"""Fixtures for the AppTest tests."""

import pytest
from app_helpers import start


@pytest.fixture
def app():
    """A started session of the app, on the default page with the default graph."""
    return start()
