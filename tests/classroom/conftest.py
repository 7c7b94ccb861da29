"""Fixtures for the classroom's tests: every database test runs on SQLite and on a real
PostgreSQL, never a mock.

The PostgreSQL server is Debian's (`apt-get install postgresql`; `tests/run.sh` installs it),
started for the whole session by `benchmarks/_postgres.py` (`initdb` into a temporary folder as an
unprivileged user, on 127.0.0.1 on a free port). In CI (env CI set) a missing PostgreSQL is a
failure, never a skip.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from playground.classroom import Classroom, database, migrations
from playground.classroom.schema import metadata

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from _postgres import PostgresServer, Unavailable  # noqa: E402


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def unavailable(reason: str) -> None:
    """Fail loudly in CI, skip with the reason elsewhere."""
    if in_ci():
        pytest.fail(f"{reason} (CI is set, so the PostgreSQL tests must run, not skip)",
                    pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def pg_server():
    """A PostgreSQL server for the session (see the module's docstring)."""
    try:
        server = PostgresServer()
    except Unavailable as err:
        unavailable(str(err))
    with server:
        yield server


class Clock:
    """A clock the tests move: seconds since 1970, like time.time."""

    def __init__(self, start: float = 1_800_000_000.0):
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


def _empty(engine) -> None:
    with engine.begin() as conn:
        for table in reversed(metadata.sorted_tables):
            if table.name != "class_schema_versions":
                conn.execute(table.delete())


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path) -> str:
    """An empty, migrated database of each kind."""
    if request.param == "sqlite":
        return database.database_url({database.DATA_ENV: str(tmp_path)})
    server = request.getfixturevalue("pg_server")
    url = server.url()
    engine = database.make_engine(url)
    migrations.migrate(engine)
    _empty(engine)
    engine.dispose()
    return url


@pytest.fixture
def room(db_url, clock):
    """A Classroom on an empty database of each kind, on the test's clock."""
    classroom = Classroom.open(db_url, clock=clock)
    yield classroom
    classroom.engine.dispose()


def wait_for(predicate, timeout: float = 30.0, every: float = 0.05):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(every)
    return False
