#!/usr/bin/env bash
# K Streamlit replicas behind nginx, on this machine: the app for a class larger than one Python
# process can serve (each replica uses one core; nginx serves the static files and keeps each
# browser on its replica). Stops everything it started on Ctrl-C or when killed.
#
#   deploy/serve.sh [K=2] [PORT=8080]       then open http://127.0.0.1:PORT
#   TLS_CERT=cert.pem TLS_KEY=key.pem deploy/serve.sh 2 8080    then open https://127.0.0.1:8443
#
# With TLS_CERT and TLS_KEY (PEM files: the certificate chain and its private key, as Let's
# Encrypt's certbot writes fullchain.pem and privkey.pem) the app is served over HTTPS on
# HTTPS_PORT (default 8443; 443 on a server), PORT only redirects to it, and the affinity and
# Streamlit's cookies are Secure. Without them the app is plain HTTP on PORT: for one machine or a
# proxy that terminates TLS before it, never for the internet.
#
# Environment: HOST (default 127.0.0.1; 0.0.0.0 to serve the network), BASE_PORT (replicas listen
# on BASE_PORT+1 ... BASE_PORT+K, default 8500), PYTHON (default .venv/bin/python), RUN_DIR
# (default a new folder under /tmp: logs, nginx.conf, `pids`, upstream.log), ALLOWED_HOSTS (the
# names the class reaches the app by, space-separated, such as "class.example.org": Streamlit
# refuses a websocket whose Host is another, against DNS rebinding; default "127.0.0.1 localhost"
# while HOST is 127.0.0.1, and any name otherwise, with a warning).
set -euo pipefail
K=${1:-2}
PORT=${2:-8080}
HOST=${HOST:-127.0.0.1}
BASE_PORT=${BASE_PORT:-8500}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PYTHON=${PYTHON:-$ROOT/.venv/bin/python}
RUN=${RUN_DIR:-$(mktemp -d /tmp/autograd-playground.XXXXXX)}
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
mkdir -p "$RUN"
if [ -z "${ALLOWED_HOSTS:-}" ] && [ "$HOST" = 127.0.0.1 ]; then
  ALLOWED_HOSTS="127.0.0.1 localhost"
fi
hosts=()
for name in ${ALLOWED_HOSTS:-}; do hosts+=(--server.allowedHosts "$name"); done
[ ${#hosts[@]} -gt 0 ] || echo "warning: ALLOWED_HOSTS is not set, so any Host name is accepted" >&2
HTTPS_PORT=${HTTPS_PORT:-8443}
if [ -n "${TLS_CERT:-}${TLS_KEY:-}" ]; then
  for file in "${TLS_CERT:-}" "${TLS_KEY:-}"; do
    [ -r "$file" ] || { echo "TLS_CERT and TLS_KEY must both name readable files" >&2; exit 2; }
  done
  TLS_CERT=$(realpath "$TLS_CERT")
  TLS_KEY=$(realpath "$TLS_KEY")
elif [ "$HOST" != 127.0.0.1 ]; then
  echo "warning: serving the network over plain HTTP; set TLS_CERT and TLS_KEY" >&2
fi

pids=()
STATIC=""
BUFFERS=""
stop() {
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  [ -z "$STATIC" ] || rm -rf "$STATIC"
  [ -z "$BUFFERS" ] || rm -rf "$BUFFERS"
}
trap stop EXIT INT TERM

# Streamlit's static files, gzipped once (nginx's gzip_static serves the .gz copies), in a folder
# of their own that nginx's workers can read (they run as `nobody` when nginx starts as root).
static=$("$PYTHON" -c 'import os, streamlit; print(os.path.join(os.path.dirname(streamlit.__file__), "static"))')
STATIC=$(mktemp -d /tmp/autograd-playground-static.XXXXXX)
cp -r "$static/." "$STATIC/"
find "$STATIC" -type f \( -name '*.js' -o -name '*.css' -o -name '*.html' -o -name '*.json' \
  -o -name '*.svg' -o -name '*.ttf' -o -name '*.txt' \) -size +1k -exec gzip -k -6 {} +
chmod -R a+rX "$STATIC"
# Request bodies (an upload) and answers larger than nginx's memory buffers go to files, in a
# folder the workers can enter: RUN_DIR may be private to the user who started nginx.
BUFFERS=$(mktemp -d /tmp/autograd-playground-buffers.XXXXXX)
chmod 711 "$BUFFERS"

upstreams=""
for i in $(seq 1 "$K"); do
  port=$((BASE_PORT + i))
  # One BLAS thread each: K replicas on K cores, not K times the cores in spinning threads.
  (cd "$ROOT" && OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 exec "$PYTHON" -m streamlit run \
    streamlit_app.py --server.port "$port" --server.address 127.0.0.1 --server.headless true \
    ${hosts[@]+"${hosts[@]}"} >"$RUN/replica-$i.log" 2>&1) &
  pids+=($!)
  upstreams="$upstreams        server 127.0.0.1:$port max_fails=0;\n"
done
for i in $(seq 1 "$K"); do
  port=$((BASE_PORT + i))
  for _ in $(seq 1 120); do
    "$PYTHON" -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$port/_stcore/health', timeout=2)" \
      2>/dev/null && break
    sleep 0.5
  done
done

# The Content-Security-Policy allows the inline script of Streamlit's page by its hash, read from
# the page a replica serves (so it follows Streamlit's version).
hashes=$("$PYTHON" - "http://127.0.0.1:$((BASE_PORT + 1))/" <<'PY'
import base64, hashlib, re, sys, urllib.request
page = urllib.request.urlopen(sys.argv[1], timeout=30).read().decode("utf-8")
scripts = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", page, re.S)
print(" ".join("'sha256-%s'" % base64.b64encode(hashlib.sha256(s.encode("utf-8")).digest())
               .decode() for s in scripts))
PY
)
# With TLS: the app on HTTPS_PORT, deploy/tls.conf's redirect on PORT, Secure cookies, HSTS.
if [ -n "${TLS_CERT:-}" ]; then
  listen="$HTTPS_PORT ssl"
  secure="; Secure"
  hsts='add_header Strict-Transport-Security "max-age=31536000" always;'
  suffix=""; [ "$HTTPS_PORT" = 443 ] || suffix=":$HTTPS_PORT"
  sed -e "s|@HOST@|$HOST|g" -e "s|@PORT@|$PORT|g" -e "s|@HTTPS_SUFFIX@|$suffix|g" \
    -e "s|@TLS_CERT@|$TLS_CERT|g" -e "s|@TLS_KEY@|$TLS_KEY|g" -e "s|@RUN@|$RUN|g" \
    "$ROOT/deploy/tls.conf" >"$RUN/tls.conf"
  url="https://$HOST:$HTTPS_PORT"
else
  listen="$PORT"; secure=""; hsts=""
  : >"$RUN/tls.conf"
  url="http://$HOST:$PORT"
fi
sed -e "s|@SCRIPT_HASHES@|$hashes|" -e "s|@HSTS@|$hsts|" "$ROOT/deploy/security-headers.conf" \
  >"$RUN/security-headers.conf"
sed -e "s|@RUN@|$RUN|g" -e "s|@STATIC@|$STATIC|g" -e "s|@BUFFERS@|$BUFFERS|g" \
  -e "s|@HOST@|$HOST|g" -e "s|@LISTEN@|$listen|g" -e "s|@SECURE@|$secure|g" \
  -e "s|@UPSTREAMS@|$(printf '%b' "$upstreams" | sed -e ':a' -e 'N' -e '$!ba' -e 's/\n/\\n/g')|" \
  "$ROOT/deploy/nginx.conf.template" >"$RUN/nginx.conf"
"$NGINX" -p "$RUN" -c "$RUN/nginx.conf" -g "daemon off;" &
pids+=($!)
printf '%s\n' "${pids[@]}" >"$RUN/pids"
echo "serving $url with $K replicas (logs and pids in $RUN)"
wait -n "${pids[@]}" || true
