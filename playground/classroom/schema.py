"""The classroom's tables as the code reads and writes them (SQLAlchemy Core).

The database gets them from the migrations (`migrations.py`), never from ``create_all``: a test
migrates an empty database and checks it holds exactly these tables and columns. Times are whole
milliseconds since 1970 (UTC), the same on SQLite and PostgreSQL.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()

rooms = Table(
    "class_rooms", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(6), nullable=False, unique=True),
    Column("teacher_hash", String(64), nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    Column("expires_ms", BigInteger, nullable=False, index=True),
    Column("current_step_id", Integer, nullable=True),  # a step of this room, or None
    Column("version", Integer, nullable=False, default=0),  # +1 at each change students see
    Column("students_joined", Integer, nullable=False, default=0),
)

steps = Table(
    "class_steps", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room_id", Integer, ForeignKey("class_rooms.id", ondelete="CASCADE"),
           nullable=False, index=True),
    Column("position", Integer, nullable=False),
    Column("page", String(32), nullable=False),
    Column("query", Text, nullable=False),
    Column("title", String(200), nullable=False),
    Column("answer_key", Text, nullable=True),  # JSON of the hidden numbers (exercise steps)
    Column("revealed", Boolean, nullable=False, default=False),
    Column("locked", Boolean, nullable=False, default=False),
)

students = Table(
    "class_students", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room_id", Integer, ForeignKey("class_rooms.id", ondelete="CASCADE"),
           nullable=False, index=True),
    Column("number", Integer, nullable=False),  # 1, 2, ... in the order they joined
    Column("pass_hash", String(64), nullable=False, unique=True),
    Column("nickname", String(100), nullable=True),
    Column("joined_ms", BigInteger, nullable=False),
)

answers = Table(
    "class_answers", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("step_id", Integer, ForeignKey("class_steps.id", ondelete="CASCADE"),
           nullable=False, index=True),
    Column("student_id", Integer, ForeignKey("class_students.id", ondelete="CASCADE"),
           nullable=False),
    Column("node", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("number", Float, nullable=True),  # the guess when it is one finite number
    Column("correct", Boolean, nullable=False),
    Column("at_ms", BigInteger, nullable=False),
    UniqueConstraint("student_id", "step_id", "node", name="uq_class_answer"),
)

rate_counters = Table(
    "class_rate_counters", metadata,
    Column("bucket", String(100), primary_key=True),
    Column("window_ms", BigInteger, nullable=False),
    Column("count", Integer, nullable=False),
)

schema_versions = Table(
    "class_schema_versions", metadata,
    Column("version", Integer, primary_key=True, autoincrement=False),
    Column("name", String(200), nullable=False),
    Column("applied_ms", BigInteger, nullable=False),
)
