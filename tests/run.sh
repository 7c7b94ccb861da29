#!/usr/bin/env bash
# The whole test suite on a fresh machine: a virtual environment, the packages, Chromium, nginx,
# PostgreSQL, then pytest.
# Usage: bash tests/run.sh [pytest arguments]   (WITH_TORCH=1 also installs PyTorch's CPU build as an oracle)
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -r requirements-dev.txt
# The oracle cannot move a package of the lock (-c).
if [ "${WITH_TORCH:-0}" = "1" ]; then
  .venv/bin/python -m pip install -q -r requirements-oracle.txt -c requirements.lock
fi
# Debian packages the tests use: the browser, Graphviz's dot, nginx (the replicas test of deploy/).
missing=""
for pair in chromium:chromium dot:graphviz nginx:nginx; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || [ -x "/usr/sbin/${pair%%:*}" ] || missing="$missing ${pair#*:}"
done
# PostgreSQL's server programs, for the live class's tests (tests/classroom/conftest.py starts one).
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$missing postgresql"
if [ -n "$missing" ]; then
  sudo_cmd=""; [ "$(id -u)" = "0" ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -q && $sudo_cmd apt-get install -y -q $missing
fi
exec .venv/bin/python -m pytest "$@"
