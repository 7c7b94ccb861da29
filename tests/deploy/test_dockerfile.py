"""deploy/Dockerfile, read (no container is built here): a pinned base image, the lock's exact
versions and nothing else, a user who is not root and can write only the data folder."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from playground.classroom import database

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "deploy" / "Dockerfile"


def _instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) in order, continuation lines joined, comments dropped."""
    lines = [line for line in DOCKERFILE.read_text().splitlines()
             if not line.lstrip().startswith("#")]
    text = re.sub(r"\\\n\s*", " ", "\n".join(lines))
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1].strip())
            for line in text.splitlines() if line.strip()]


def _runs() -> list[list[str]]:
    """Each command of every RUN (split at &&), as words."""
    return [shlex.split(command) for name, args in _instructions() if name == "RUN"
            for command in args.split("&&")]


def test_the_base_image_is_pinned_by_tag_and_digest():
    froms = [args for name, args in _instructions() if name == "FROM"]
    assert len(froms) == 1
    assert re.fullmatch(r"python:3\.11\.\d+-slim-bookworm@sha256:[0-9a-f]{64}", froms[0]), froms


def test_packages_come_from_the_lock_only():
    installs = [words for words in _runs() if words[:2] == ["pip", "install"]]
    assert installs == [["pip", "install", "--no-cache-dir", "--no-deps", "-r",
                         "/tmp/requirements.lock"]]
    assert ["pip", "check"] in _runs()
    copies = [args for name, args in _instructions() if name == "COPY"]
    assert "requirements.lock /tmp/requirements.lock" in copies


def test_the_app_runs_as_a_user_who_can_write_only_the_data_folder():
    instructions = _instructions()
    users = [args for name, args in instructions if name == "USER"]
    assert users == ["playground"]
    [useradd] = [words for words in _runs() if words[0] == "useradd"]
    uid = useradd[useradd.index("--uid") + 1]
    assert int(uid) >= 1000 and useradd[-1] == "playground"
    data = dict(args.split("=", 1) for name, args in instructions if name == "ENV"
                and args.startswith(database.DATA_ENV + "="))[database.DATA_ENV]
    # Nothing is given to the user but the data folder: no COPY --chown, one chown.
    assert not any("--chown" in args for name, args in instructions if name in ("COPY", "ADD"))
    chowns = [words for words in _runs() if words[0] == "chown"]
    assert chowns == [["chown", "playground:playground", data]]
    # The code is copied as root, then made read-only; the user is set after that.
    workdir = next(args for name, args in instructions if name == "WORKDIR")
    assert ["chmod", "-R", "a-w,a+rX", workdir] in _runs()
    names = [name for name, _ in instructions]
    assert names.index("USER") > max(i for i, (name, args) in enumerate(instructions)
                                     if name == "RUN" and "chmod" in args)
    assert names.index("USER") > max(i for i, name in enumerate(names) if name == "COPY")


def test_the_image_leaves_out_local_data_and_environments():
    ignored = (ROOT / "deploy" / "Dockerfile.dockerignore").read_text().splitlines()
    assert {".data", ".venv", ".git", "tests"} <= set(ignored)
