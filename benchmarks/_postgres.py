"""A throwaway PostgreSQL server for the live class's tests and benchmarks, never a mock.

Debian's server programs (`apt-get install postgresql`): `initdb` into a temporary folder as an
unprivileged user (PostgreSQL refuses to run as root, so as root it runs as `nobody` through
`runuser`), trust authentication, listening on 127.0.0.1 on a free port with its socket in that
folder; everything is deleted when it stops.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

PG_USER = "nobody"


class Unavailable(RuntimeError):
    """PostgreSQL or its driver is not installed; the message says what to install."""


def pg_bin() -> Path | None:
    """The newest PostgreSQL server programs Debian installed, if any."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    return Path(found[-1]).parent if found else None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PostgresServer:
    """A PostgreSQL server in a temporary folder: ``with PostgresServer() as pg: pg.url()``."""

    def __init__(self, max_connections: int = 200) -> None:
        try:
            import psycopg  # noqa: F401
        except ImportError:
            raise Unavailable("psycopg (psycopg[binary]) is not installed: pip install -r "
                              "requirements.txt") from None
        self.bin = pg_bin()
        if self.bin is None:
            raise Unavailable("PostgreSQL is not installed (apt-get install postgresql; "
                              "tests/run.sh does it)")
        self.max_connections = max_connections
        self.root = Path(tempfile.mkdtemp(prefix="agpg-"))
        self.as_user = []
        if os.geteuid() == 0:
            self.as_user = ["runuser", "-u", PG_USER, "--"]
            shutil.chown(self.root, PG_USER)
            self.root.chmod(0o700)
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = free_port()
        self.counter = 0

    def __enter__(self) -> PostgresServer:
        try:
            subprocess.run([*self.as_user, str(self.bin / "initdb"), "-D", str(self.data), "-U",
                            "postgres", "-A", "trust", "-E", "UTF8", "--no-instructions"],
                           check=True, capture_output=True, timeout=120)
            self.start()
        except BaseException:
            shutil.rmtree(self.root, ignore_errors=True)
            raise
        return self

    def __exit__(self, *_exc) -> None:
        try:
            self.stop("immediate")
        except subprocess.SubprocessError:
            pass
        shutil.rmtree(self.root, ignore_errors=True)

    def _ctl(self, *args: str) -> None:
        options = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=on "
                   f"-c max_connections={self.max_connections}")
        subprocess.run([*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data), "-l",
                        str(self.log), "-w", "-t", "60", "-o", options, *args],
                       check=True, capture_output=True, timeout=90)

    def start(self) -> None:
        self._ctl("start")

    def stop(self, mode: str = "fast") -> None:
        """Stop the server: "fast" as an administrator would, "immediate" as a crash."""
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
