#!/usr/bin/env bash
# Prints the path of a Temporal CLI for the embedded dev server, installing it where missing:
# TEMPORAL_CLI, then PATH, then the project's cache; else `go install` v1.5.1 into the cache (pure Go,
# CGO off; Go's module and build caches make later installs quick). v1.6+ cannot be `go install`ed by version.
set -euo pipefail
CACHE=${REVIEWGRID_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/reviewgrid}/bin
if [ -n "${TEMPORAL_CLI:-}" ] && [ -x "$TEMPORAL_CLI" ]; then echo "$TEMPORAL_CLI"; exit 0; fi
if command -v temporal >/dev/null 2>&1; then command -v temporal; exit 0; fi
if [ -x "$CACHE/temporal" ]; then echo "$CACHE/temporal"; exit 0; fi
GO=${GO:-$(command -v go || echo /usr/local/go/bin/go)}
if [ ! -x "$GO" ]; then
  echo "ensure-temporal: no Temporal CLI found and no Go toolchain to install it (set TEMPORAL_CLI)" >&2
  exit 1
fi
mkdir -p "$CACHE"
# One install at a time: test runs started side by side on a fresh machine each call this; the others wait for it.
# (flock is util-linux's: where it is missing, macOS say, installs are not serialised, as before.)
exec 9>"$CACHE/.temporal-install.lock"
if command -v flock >/dev/null 2>&1; then flock 9; fi
if [ -x "$CACHE/temporal" ]; then echo "$CACHE/temporal"; exit 0; fi
echo "ensure-temporal: installing the Temporal CLI v1.5.1 into $CACHE (first time only, a few minutes)" >&2
GOBIN="$CACHE" CGO_ENABLED=0 GOFLAGS=-mod=mod "$GO" install github.com/temporalio/cli/cmd/temporal@v1.5.1 >&2
echo "$CACHE/temporal"
