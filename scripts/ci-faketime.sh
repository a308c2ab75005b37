#!/usr/bin/env bash
# CI: the quota period suite moves the platform's clock to a window's end and past it with
# Debian's libfaketime (LD_PRELOAD, the offset read from a file), as a manual clock does in the
# unit tests. Installed when missing. Called by .ci/run.
set -euo pipefail

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
library=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1

if [ ! -f "$library" ]; then
  echo "ci-faketime: libfaketime is missing; installing Debian's faketime"
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q faketime
fi

ls "$library"
