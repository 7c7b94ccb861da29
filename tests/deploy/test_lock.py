"""requirements.lock: the exact version of every package the app runs on, made from
requirements.txt by `uv pip compile` (README, "Deploy"); the Dockerfile and tests/run.sh (so CI
and every developer) install it, so the venv that runs the tests holds exactly its versions."""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "requirements.lock"


def _requirements(path: Path) -> list[Requirement]:
    lines = (line.split("#", 1)[0].strip() for line in path.read_text().splitlines())
    return [Requirement(line) for line in lines if line]


def _applies(requirement: Requirement, extra: str = "") -> bool:
    return requirement.marker is None or requirement.marker.evaluate({"extra": extra})


def _locked() -> dict[str, Requirement]:
    return {canonicalize_name(r.name): r for r in _requirements(LOCK)}


def test_every_package_of_the_lock_has_one_exact_version():
    for requirement in _requirements(LOCK):
        [spec] = requirement.specifier
        assert spec.operator == "==" and re.fullmatch(r"[0-9][0-9A-Za-z.+]*", spec.version), \
            requirement
        assert not requirement.extras and requirement.url is None, requirement
    assert len(_locked()) == len(_requirements(LOCK))


def test_the_lock_pins_every_package_of_requirements_txt_within_its_bounds():
    locked = _locked()
    for requirement in _requirements(ROOT / "requirements.txt"):
        pinned = locked[canonicalize_name(requirement.name)]
        [spec] = pinned.specifier
        assert requirement.specifier.contains(spec.version), (requirement, pinned)
    assert "torch" not in locked  # the test oracle stays in requirements-oracle.txt


def test_the_lock_holds_every_dependency_and_nothing_else():
    """From requirements.txt through each installed package's requirements (with their extras,
    markers for this machine): the packages reached are exactly the lock's that apply here."""
    wanted = [r for r in _requirements(ROOT / "requirements.txt") if _applies(r)]
    seen: set[tuple[str, frozenset[str]]] = set()
    while wanted:
        requirement = wanted.pop()
        key = (canonicalize_name(requirement.name), frozenset(requirement.extras))
        if key in seen:
            continue
        seen.add(key)
        for line in importlib.metadata.requires(key[0]) or []:
            dependency = Requirement(line)
            if any(_applies(dependency, extra) for extra in ["", *requirement.extras]):
                wanted.append(dependency)
    reached = {name for name, _ in seen}
    applying = {name for name, r in _locked().items() if _applies(r)}
    assert reached == applying, (sorted(reached - applying), sorted(applying - reached))


def test_the_venv_holds_the_locked_versions():
    for name, requirement in _locked().items():
        if _applies(requirement):
            [spec] = requirement.specifier
            assert importlib.metadata.version(name) == spec.version, name


def test_the_lock_is_made_for_cis_python_and_installed_by_the_recipes():
    command = LOCK.read_text().splitlines()[1]
    assert command.split() == ["#", "uv", "pip", "compile", "requirements.txt", "--universal",
                               "--python-version", "3.11", "-o", "requirements.lock"]
    dev = (ROOT / "requirements-dev.txt").read_text().splitlines()
    assert "-r requirements.lock" in dev and "-r requirements.txt" not in dev
    assert "-c requirements.lock" in (ROOT / "tests" / "run.sh").read_text()  # with torch
