#!/usr/bin/env bash
# CI: the rolling-restart suite puts a real load balancer in front of two backends: Debian's
# HAProxy, health-checking /readyz as a Kubernetes Service's readiness does. Installed when
# missing; only the binary is used (the suite writes its own configuration; the system service
# is not started). Called by .ci/run.
set -euo pipefail

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

if ! command -v haproxy >/dev/null 2>&1; then
  echo "ci-haproxy: haproxy is missing; installing Debian's haproxy"
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q haproxy
fi

# sed reads the whole output: `head` would close the pipe early and pipefail turn SIGPIPE into a failure.
haproxy -v | sed -n 1p
