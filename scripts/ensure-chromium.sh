#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (/usr/bin/chromium) with playwright-core; install it where missing.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
echo "installing chromium (apt-get)"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
/usr/bin/chromium --version || true
