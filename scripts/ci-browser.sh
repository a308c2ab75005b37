#!/usr/bin/env bash
# CI: the browser suites need Chromium. Debian's `chromium` package is the one they drive (through
# playwright-core's executablePath); install it when it is missing. Called by .ci/run.
set -euo pipefail

chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

if [ ! -x "$chromium_path" ]; then
  echo "ci-browser: $chromium_path is missing; installing Debian's chromium"
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium
fi

"$chromium_path" --version 2>/dev/null
