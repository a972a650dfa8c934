#!/usr/bin/env bash
# Writes the compose topology's `.env` (or the file given) from .env.example, filling every empty secret with a
# fresh random value. Never overwrites an existing file: secrets such as APP_KEY must stay the same for the life
# of an installation.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.env}
if [ -e "$out" ]; then
  echo "init-env: $out exists; keeping it (delete it first to start a new installation)" >&2
  exit 0
fi
rand() { node -e "process.stdout.write(require('crypto').randomBytes($1).toString('$2'))"; }
umask 077
while IFS= read -r line; do
  case "$line" in
    APP_KEY=) echo "APP_KEY=$(rand 32 base64)" ;;
    *PASSWORD=|METRICS_TOKEN=) echo "${line}$(rand 24 hex)" ;;
    *) echo "$line" ;;
  esac
done < .env.example > "$out"
echo "init-env: wrote $out" >&2
