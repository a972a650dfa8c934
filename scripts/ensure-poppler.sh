#!/usr/bin/env bash
# The PDF layout tests render the reports' PDFs to PNG with Debian's poppler-utils (pdftoppm); install it where missing.
set -euo pipefail
if command -v pdftoppm >/dev/null 2>&1; then
  exit 0
fi
echo "installing poppler-utils (apt-get)"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq poppler-utils >/dev/null
pdftoppm -v 2>&1 | head -1 || true
