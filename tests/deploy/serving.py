"""deploy/serve.sh started for a test: N replicas behind Debian's nginx on free loopback ports."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import load  # noqa: E402

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


@contextlib.contextmanager
def serve(run: Path, replicas: int, base_port: int) -> Iterator[tuple[str, list[str]]]:
    """`deploy/serve.sh replicas` writing into `run`: (nginx URL, the replicas' URLs), stopped
    afterwards. Without nginx the test fails in CI and is skipped elsewhere."""
    if not Path(NGINX).exists():
        if os.environ.get("CI"):
            pytest.fail("nginx is missing; tests/run.sh installs Debian's nginx")
        pytest.skip("nginx is missing: apt-get install nginx (tests/run.sh does)")
    port = load._free_port()
    env = {**os.environ, "RUN_DIR": str(run), "BASE_PORT": str(base_port),
           "PYTHON": sys.executable}
    with open(run / "serve.log", "w") as log:
        process = subprocess.Popen(
            ["bash", str(ROOT / "deploy" / "serve.sh"), str(replicas), str(port)], env=env,
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 180
        while not ((run / "pids").exists() and load._healthy(url)):
            if process.poll() is not None or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        try:
            assert load._healthy(url), (run / "serve.log").read_text()[-2000:]
            yield url, [f"http://127.0.0.1:{base_port + i}" for i in range(1, replicas + 1)]
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=30)
