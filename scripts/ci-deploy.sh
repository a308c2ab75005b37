#!/usr/bin/env bash
# CI: the deployment test (npm run test:deploy, docs/operations.md "Deployment test") needs
# Debian's podman, runc, podman-compose and debootstrap; install them when they are missing, then
# run it. Not called by .ci/run: on a fresh CI machine it builds every image, which does not fit
# the suites' 15-minute budget, beside them or after them (docs/operations.md, "How long").
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
for tool in podman podman-compose debootstrap; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
[ -x /usr/sbin/runc ] || command -v runc >/dev/null 2>&1 || missing+=(runc)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "ci-deploy: ${missing[*]} missing; installing Debian's podman runc podman-compose debootstrap"
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q podman runc podman-compose debootstrap
fi

npm run test:deploy
