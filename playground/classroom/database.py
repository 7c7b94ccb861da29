"""Which database, and the engine that talks to it.

By default an embedded SQLite file, ``classroom.sqlite3`` in the data folder
(``$AUTOGRAD_PLAYGROUND_DATA``, else ``.data/`` beside the app), so the quick start needs no set-up.
With ``DATABASE_URL`` set, that database: ``postgresql://user:pass@host/db`` (or
``postgres://``) is PostgreSQL through psycopg 3.

SQLite is set up for a server of many threads and, with ``deploy/serve.sh``, several processes on
one disk: write-ahead logging (readers never wait for the writer), ``synchronous=FULL`` (a commit
is on disk before it returns, so an acknowledged answer survives the process being killed and the
machine losing power), foreign keys on, and a busy timeout instead of "database is locked".
Python's sqlite3 module would open transactions only before INSERT/UPDATE/DELETE and commit DDL
on its own; here SQLAlchemy's documented recipe hands the transactions to SQLAlchemy, and a
writing transaction starts with BEGIN IMMEDIATE (``execution_options(immediate=True)``), taking
the write lock first instead of failing to upgrade a read lock half-way.

PostgreSQL gets ``pool_pre_ping``: a connection is tested before each use, so after a database
restart the next request opens a fresh connection by itself.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url

DATA_ENV = "AUTOGRAD_PLAYGROUND_DATA"
URL_ENV = "DATABASE_URL"
DEFAULT_DATA = Path(__file__).resolve().parents[2] / ".data"
SQLITE_FILE = "classroom.sqlite3"
BUSY_TIMEOUT_S = 15


def database_url(environ: os._Environ | dict | None = None) -> str:
    """The database the app uses, from the environment (see the module's docstring)."""
    env = os.environ if environ is None else environ
    url = (env.get(URL_ENV) or "").strip()
    if not url:
        folder = Path(env.get(DATA_ENV) or DEFAULT_DATA)
        return f"sqlite+pysqlite:///{folder / SQLITE_FILE}"
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def make_engine(url: str | None = None) -> Engine:
    """An engine for ``url`` (default: ``database_url()``), set up as the docstring says."""
    url = url or database_url()
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_S})
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=10,
                         pool_recycle=1800)


def _sqlite_connect(dbapi_connection, _record) -> None:
    dbapi_connection.isolation_level = None  # SQLAlchemy's BEGIN, not the driver's guesses
    cursor = dbapi_connection.cursor()
    for pragma in (f"busy_timeout={BUSY_TIMEOUT_S * 1000}", "synchronous=FULL", "foreign_keys=ON"):
        cursor.execute(f"PRAGMA {pragma}")
    _use_wal(cursor)
    cursor.close()


def _use_wal(cursor) -> None:
    """Switch a new file to write-ahead logging, retrying while another connection switches it.

    SQLite answers "database is locked" at once, without its busy handler, to a connection that
    changes the journal mode while another one is opening the same new file (replicas starting
    together); the mode is the file's, so a retry finds it set and does nothing.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while cursor.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def _sqlite_begin(conn) -> None:
    conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get("immediate")
                         else "BEGIN")
