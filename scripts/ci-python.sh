#!/usr/bin/env bash
# CI: the token-exchange suite runs a Python client (test/e2e/token-exchange/exchange.py) on
# Debian's Authlib and its requests client, and the SAML suite a real identity provider
# (test/support/saml-idp.py) on Debian's pysaml2 with xmlsec1, with the system /usr/bin/python3;
# install them when they are missing. Called by .ci/run.
set -euo pipefail

python=/usr/bin/python3
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

if ! "$python" -c 'import authlib.integrations.requests_client' 2>/dev/null; then
  echo "ci-python: Authlib with requests is missing for $python; installing Debian's python3-authlib"
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-authlib python3-requests
fi

if ! "$python" -c 'import saml2.server' 2>/dev/null || ! command -v xmlsec1 >/dev/null; then
  echo "ci-python: pysaml2 or xmlsec1 is missing for $python; installing Debian's python3-pysaml2 and xmlsec1"
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-pysaml2 xmlsec1
fi

"$python" -c 'import authlib; print("Authlib", authlib.__version__)'
"$python" -c 'import saml2; print("pysaml2", saml2.__version__)'
xmlsec1 --version
