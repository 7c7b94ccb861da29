"""deploy/serve.sh with TLS_CERT and TLS_KEY: a certificate made here (openssl, self-signed for
127.0.0.1), the app over HTTPS, plain HTTP only redirecting to it, cookies that never travel in
the clear, and every page in Chromium over HTTPS under the Content-Security-Policy."""

from __future__ import annotations

import http.client
import os
import shutil
import ssl
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import load  # noqa: E402

from tests.deploy import serving  # noqa: E402


def _certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost, valid for a day: (cert, key)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("the openssl command is missing (Debian's openssl package)")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return cert, key


@pytest.fixture(scope="module")
def tls(tmp_path_factory):
    """deploy/serve.sh 1 with a fresh certificate: (HTTPS URL, plain HTTP port, HTTPS port,
    certificate)."""
    run = tmp_path_factory.mktemp("tls")
    cert, key = _certificate(run)
    port, https_port = load._free_port(), load._free_port()
    env = {"TLS_CERT": str(cert), "TLS_KEY": str(key), "HTTPS_PORT": str(https_port)}
    with serving.serve(run, 1, 35_000 + os.getpid() % 1_000 * 2, port=port, env=env) as (url, _):
        yield url, port, https_port, cert


def _request(connection: http.client.HTTPConnection, path: str) -> http.client.HTTPResponse:
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    return response


def test_plain_http_only_redirects_to_https(tls):
    _, port, https_port, _ = tls
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        for path in ["/", "/graph?graph=v1.abc&x=1", "/_stcore/health", "/static/js/a.js"]:
            response = _request(connection, path)
            assert response.status == 301, (path, response.status)
            assert response.headers["Location"] == f"https://127.0.0.1:{https_port}{path}"
            assert response.headers.get("Set-Cookie") is None, path
    finally:
        connection.close()


def test_https_serves_the_app_with_the_certificate_and_secure_cookies(tls):
    _, _, https_port, cert = tls
    context = ssl.create_default_context(cafile=str(cert))  # the certificate verifies
    connection = http.client.HTTPSConnection("127.0.0.1", https_port, timeout=30,
                                             context=context)
    try:
        response = _request(connection, "/")
        assert response.status == 200
        assert connection.sock.version() in ("TLSv1.2", "TLSv1.3")
        headers = response.headers
        assert headers["Strict-Transport-Security"] == "max-age=31536000"
        assert headers["Content-Security-Policy"].startswith("default-src 'self'")
        [replica] = headers.get_all("Set-Cookie")
        name, *flags = replica.split("; ")
        assert name.startswith("playground_replica=")
        assert sorted(flags) == ["HttpOnly", "Path=/", "SameSite=Strict", "Secure"]
        # Streamlit sets its XSRF token with the health answer: Secure too (the page's script
        # reads it, so it cannot be HttpOnly).
        health = _request(connection, "/_stcore/health")
        assert health.status == 200
        cookies = {c.split("=", 1)[0]: c.split("; ")[1:]
                   for c in health.headers.get_all("Set-Cookie")}
        assert sorted(cookies) == ["_streamlit_xsrf", "playground_replica"]
        assert "Secure" in cookies["_streamlit_xsrf"], cookies
    finally:
        connection.close()


def test_every_page_runs_over_https_under_the_content_security_policy(tls):
    url, _, _, _ = tls
    serving.every_page_runs_under_the_csp(url)
