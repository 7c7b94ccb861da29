"""Versioned migrations, applied in order at start-up: a small runner instead of Alembic.

Each migration is a numbered function that changes the schema by SQLAlchemy's DDL (no SQL text),
written once and never edited afterwards: a later change is a new migration. ``migrate`` applies
the ones a database has not had, each with its row in ``class_schema_versions``, inside one
transaction that holds the database's write lock (PostgreSQL: a transaction-level advisory lock;
SQLite: BEGIN IMMEDIATE), so replicas starting together apply each migration exactly once, and a
crash half-way leaves the database as it was (both databases roll DDL back).

Why not Alembic: the app migrates itself when it starts (Streamlit Cloud runs no release step),
the schema is five tables, and this runner is 60 lines the tests run on both databases; Alembic
would add a dependency, an ini file, an env.py and a command nobody runs. A later migration that
needs Alembic's batch mode for SQLite can still adopt it, reading this table's versions.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    insert,
    select,
    text,
)

from .schema import schema_versions

ADVISORY_LOCK = 0x6167_636C  # "agcl": PostgreSQL's advisory lock of the migration runner


def _v1_rooms_steps_students_answers(conn: Connection) -> None:
    """Rooms, lesson steps, students, answers and the rate-limit counters."""
    m = MetaData()
    Table("class_rooms", m,
          Column("id", Integer, primary_key=True, autoincrement=True),
          Column("code", String(6), nullable=False, unique=True),
          Column("teacher_hash", String(64), nullable=False),
          Column("created_ms", BigInteger, nullable=False),
          Column("expires_ms", BigInteger, nullable=False, index=True),
          Column("current_step_id", Integer, nullable=True),
          Column("version", Integer, nullable=False),
          Column("students_joined", Integer, nullable=False))
    Table("class_steps", m,
          Column("id", Integer, primary_key=True, autoincrement=True),
          Column("room_id", Integer, ForeignKey("class_rooms.id", ondelete="CASCADE"),
                 nullable=False, index=True),
          Column("position", Integer, nullable=False),
          Column("page", String(32), nullable=False),
          Column("query", Text, nullable=False),
          Column("title", String(200), nullable=False),
          Column("answer_key", Text, nullable=True),
          Column("revealed", Boolean, nullable=False),
          Column("locked", Boolean, nullable=False))
    Table("class_students", m,
          Column("id", Integer, primary_key=True, autoincrement=True),
          Column("room_id", Integer, ForeignKey("class_rooms.id", ondelete="CASCADE"),
                 nullable=False, index=True),
          Column("number", Integer, nullable=False),
          Column("pass_hash", String(64), nullable=False, unique=True),
          Column("nickname", String(100), nullable=True),
          Column("joined_ms", BigInteger, nullable=False))
    Table("class_answers", m,
          Column("id", Integer, primary_key=True, autoincrement=True),
          Column("step_id", Integer, ForeignKey("class_steps.id", ondelete="CASCADE"),
                 nullable=False, index=True),
          Column("student_id", Integer, ForeignKey("class_students.id", ondelete="CASCADE"),
                 nullable=False),
          Column("node", String(64), nullable=False),
          Column("text", Text, nullable=False),
          Column("number", Float, nullable=True),
          Column("correct", Boolean, nullable=False),
          Column("at_ms", BigInteger, nullable=False),
          UniqueConstraint("student_id", "step_id", "node", name="uq_class_answer"))
    Table("class_rate_counters", m,
          Column("bucket", String(100), primary_key=True),
          Column("window_ms", BigInteger, nullable=False),
          Column("count", Integer, nullable=False))
    m.create_all(conn)


MIGRATIONS: tuple[tuple[int, Callable[[Connection], None]], ...] = (
    (1, _v1_rooms_steps_students_answers),
)
"""(version, function) in order; the function's docstring is the name the table records."""


def migrate(engine: Engine) -> list[int]:
    """Apply the migrations this database has not had; returns their versions (maybe none)."""
    with engine.execution_options(immediate=True).begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": ADVISORY_LOCK})
        schema_versions.create(conn, checkfirst=True)
        done = set(conn.scalars(select(schema_versions.c.version)))
        applied = []
        for version, change in MIGRATIONS:
            if version in done:
                continue
            change(conn)
            conn.execute(insert(schema_versions).values(
                version=version, name=(change.__doc__ or change.__name__).strip()[:200],
                applied_ms=int(time.time() * 1000)))
            applied.append(version)
        return applied


def current_version(engine: Engine) -> int:
    with engine.connect() as conn:
        if not engine.dialect.has_table(conn, schema_versions.name):
            return 0
        return max(conn.scalars(select(schema_versions.c.version)), default=0)
