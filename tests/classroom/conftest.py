"""Fixtures for the classroom's tests: every database test runs on SQLite and on a real
PostgreSQL, never a mock.

The PostgreSQL server is Debian's (`apt-get install postgresql`; `tests/run.sh` installs it):
`initdb` into a temporary folder as an unprivileged user (root cannot run PostgreSQL; as root
the fixture runs it as `nobody` through `runuser`), listening on 127.0.0.1 on a free port, for
the whole session. In CI (env CI set) a missing PostgreSQL is a failure, never a skip.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from playground.classroom import Classroom, database, migrations
from playground.classroom.schema import metadata

PG_USER = "nobody"


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def unavailable(reason: str) -> None:
    """Fail loudly in CI, skip with the reason elsewhere."""
    if in_ci():
        pytest.fail(f"{reason} (CI is set, so the PostgreSQL tests must run, not skip)",
                    pytrace=False)
    pytest.skip(reason)


def pg_bin() -> Path | None:
    """The newest PostgreSQL server programs Debian installed, if any."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    return Path(found[-1]).parent if found else None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class PgServer:
    """A running PostgreSQL server of this test session."""

    bin: Path
    data: Path
    port: int
    log: Path
    as_user: list[str] = field(default_factory=list)
    counter: int = 0

    def _ctl(self, *args: str) -> None:
        options = (f"-p {self.port} -k {self.data.parent} -c listen_addresses=127.0.0.1 "
                   "-c fsync=on -c max_connections=200")
        subprocess.run([*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data), "-l",
                        str(self.log), "-w", "-t", "60", "-o", options, *args],
                       check=True, capture_output=True, timeout=90)

    def start(self) -> None:
        self._ctl("start")

    def stop(self, mode: str = "fast") -> None:
        self._ctl("stop", "-m", mode)

    def restart(self) -> None:
        self._ctl("restart", "-m", "fast")

    def url(self, db: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{db}"

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        import psycopg

        self.counter += 1
        name = f"t{os.getpid()}_{self.counter}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


@pytest.fixture(scope="session")
def pg_server():
    """A PostgreSQL server for the session (see the module's docstring)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        unavailable("psycopg (psycopg[binary]) is not installed: pip install -r "
                    "requirements.txt")
    binaries = pg_bin()
    if binaries is None:
        unavailable("PostgreSQL is not installed (apt-get install postgresql; tests/run.sh "
                    "does it)")
    root = Path(tempfile.mkdtemp(prefix="agpg-"))
    as_user = []
    if os.geteuid() == 0:
        as_user = ["runuser", "-u", PG_USER, "--"]
        shutil.chown(root, PG_USER)
        root.chmod(0o700)
    data = root / "data"
    subprocess.run([*as_user, str(binaries / "initdb"), "-D", str(data), "-U", "postgres",
                    "-A", "trust", "-E", "UTF8", "--no-instructions"],
                   check=True, capture_output=True, timeout=120)
    server = PgServer(binaries, data, free_port(), root / "server.log", as_user)
    server.start()
    try:
        yield server
    finally:
        try:
            server.stop("immediate")
        except subprocess.SubprocessError:
            pass
        shutil.rmtree(root, ignore_errors=True)


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
