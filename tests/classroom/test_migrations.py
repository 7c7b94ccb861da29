"""The migrations build exactly the tables the code uses, once, even with replicas starting
together; on SQLite and on PostgreSQL."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import inspect

from playground.classroom import Classroom, database, migrations
from playground.classroom.schema import metadata


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return database.database_url({database.DATA_ENV: str(tmp_path / "new")})
    return request.getfixturevalue("pg_server").new_database()


def test_migrating_an_empty_database_gives_the_codes_tables_and_columns(empty_url):
    engine = database.make_engine(empty_url)
    try:
        assert migrations.current_version(engine) == 0
        assert migrations.migrate(engine) == [v for v, _ in migrations.MIGRATIONS]
        assert migrations.migrate(engine) == []  # a second start changes nothing
        assert migrations.current_version(engine) == migrations.MIGRATIONS[-1][0]
        found = inspect(engine)
        assert set(found.get_table_names()) == set(metadata.tables)
        for table in metadata.sorted_tables:
            columns = {c["name"]: c["nullable"] for c in found.get_columns(table.name)}
            assert columns == {c.name: c.nullable for c in table.columns}, table.name
    finally:
        engine.dispose()


def test_replicas_starting_together_apply_each_migration_once(empty_url):
    engines = [database.make_engine(empty_url) for _ in range(4)]
    applied, errors = [], []
    barrier = threading.Barrier(len(engines))

    def start(engine):
        barrier.wait()
        try:
            applied.append(migrations.migrate(engine))
        except Exception as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=start, args=(e,)) for e in engines]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    try:
        assert not errors
        assert sorted(applied, key=len) == [[], [], [], [1]]
        room = Classroom(engines[0])
        assert room.create_room().code
    finally:
        for engine in engines:
            engine.dispose()


def test_the_default_database_is_a_file_in_the_data_folder_and_needs_no_set_up(tmp_path):
    url = database.database_url({database.DATA_ENV: str(tmp_path / "deep" / "er")})
    assert url.endswith("/deep/er/classroom.sqlite3")
    room = Classroom.open(url)
    try:
        assert room.create_room().code
        with room.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    finally:
        room.engine.dispose()
    assert (tmp_path / "deep" / "er" / "classroom.sqlite3").exists()


def test_database_url_reads_postgres_urls_as_psycopg_3():
    env = {database.URL_ENV: "postgres://u:p@db.example:5432/playground"}
    assert database.database_url(env) == "postgresql+psycopg://u:p@db.example:5432/playground"
    env = {database.URL_ENV: "postgresql://u@h/d"}
    assert database.database_url(env) == "postgresql+psycopg://u@h/d"
    assert database.database_url({}).endswith("/.data/classroom.sqlite3")
