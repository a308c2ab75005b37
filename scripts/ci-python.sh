#!/usr/bin/env bash
# CI: the token-exchange suite runs a Python client (test/e2e/token-exchange/exchange.py) on
# Debian's Authlib and its requests client, with the system /usr/bin/python3; install them when
# they are missing. Called by .ci/run.
set -euo pipefail

python=/usr/bin/python3
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

if ! "$python" -c 'import authlib.integrations.requests_client' 2>/dev/null; then
  echo "ci-python: Authlib with requests is missing for $python; installing Debian's python3-authlib"
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-authlib python3-requests
fi

"$python" -c 'import authlib; print("Authlib", authlib.__version__)'
