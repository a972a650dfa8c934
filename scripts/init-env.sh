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
# Random bytes from the kernel, written with coreutils (no Node needed on the host). A value that cannot be made stops
# the script before anything is written: a failed substitution inside `echo` would not (set -e ignores it there).
rand() {
  local value
  if [ "$2" = base64 ]; then value=$(head -c "$1" /dev/urandom | base64 | tr -d '\n'); else value=$(head -c "$1" /dev/urandom | od -An -v -tx1 | tr -d ' \n'); fi
  [ -n "$value" ] || { echo "init-env: could not generate a secret" >&2; return 1; }
  printf '%s' "$value"
}
umask 077
tmp=$(mktemp "${out}.XXXXXX")
trap 'rm -f "$tmp"' EXIT
while IFS= read -r line; do
  case "$line" in
    APP_KEY=) secret=$(rand 32 base64) || exit 1; echo "APP_KEY=$secret" ;;
    *PASSWORD=|METRICS_TOKEN=) secret=$(rand 24 hex) || exit 1; echo "${line}${secret}" ;;
    *) echo "$line" ;;
  esac
done < .env.example > "$tmp"
mv "$tmp" "$out"
trap - EXIT
echo "init-env: wrote $out" >&2
