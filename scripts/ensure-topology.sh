#!/usr/bin/env bash
# Installs, once, what the topology test runs as local processes in place of the compose services, into the
# project's cache (~/.cache/reviewgrid): a real Temporal server and its SQL schema tool built from
# go.temporal.io/server (not the CLI's start-dev), Mailpit, and Node 24 (the image's runtime) from the npm
# registry where the machine's Node is older. Prints nothing but progress on stderr; `--print-env` prints the
# resulting paths as shell assignments.
set -euo pipefail
ROOT=${REVIEWGRID_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/reviewgrid}
BIN=$ROOT/bin
TEMPORAL_SERVER_VERSION=v1.30.4
MAILPIT_VERSION=v1.27.11
GO=${GO:-$(command -v go || echo /usr/local/go/bin/go)}
mkdir -p "$BIN"

need_go() {
  if [ ! -x "$GO" ]; then echo "ensure-topology: Go is needed to build $1 (set GO)" >&2; exit 1; fi
}

if [ ! -x "$BIN/temporal-server-$TEMPORAL_SERVER_VERSION" ]; then
  need_go "the Temporal server"
  echo "ensure-topology: building go.temporal.io/server $TEMPORAL_SERVER_VERSION (first time only, several minutes)" >&2
  tmp=$(mktemp -d)
  GOBIN="$tmp" CGO_ENABLED=0 GOFLAGS=-mod=mod "$GO" install "go.temporal.io/server/cmd/server@$TEMPORAL_SERVER_VERSION" >&2
  GOBIN="$tmp" CGO_ENABLED=0 GOFLAGS=-mod=mod "$GO" install "go.temporal.io/server/cmd/tools/sql@$TEMPORAL_SERVER_VERSION" >&2
  install -m 0755 "$tmp/sql" "$BIN/temporal-sql-tool-$TEMPORAL_SERVER_VERSION"
  install -m 0755 "$tmp/server" "$BIN/temporal-server-$TEMPORAL_SERVER_VERSION"
  rm -rf "$tmp"
fi
# The SQL schemas ship inside the module; the module cache keeps them after the build.
SCHEMA_DIR=$("$GO" env GOMODCACHE)/go.temporal.io/server@$TEMPORAL_SERVER_VERSION/schema/postgresql/v12
if [ ! -d "$SCHEMA_DIR" ]; then
  need_go "the Temporal schema"
  GOFLAGS=-mod=mod "$GO" mod download "go.temporal.io/server@$TEMPORAL_SERVER_VERSION" >&2
fi

if [ ! -x "$BIN/mailpit-$MAILPIT_VERSION" ]; then
  need_go "Mailpit"
  echo "ensure-topology: building Mailpit $MAILPIT_VERSION (first time only)" >&2
  tmp=$(mktemp -d)
  GOBIN="$tmp" CGO_ENABLED=0 GOFLAGS=-mod=mod "$GO" install "github.com/axllent/mailpit@$MAILPIT_VERSION" >&2
  install -m 0755 "$tmp/mailpit" "$BIN/mailpit-$MAILPIT_VERSION"
  rm -rf "$tmp"
fi

NODE_BIN=$(bash "$(dirname "$0")/ensure-node24.sh")

if [ "${1:-}" = "--print-env" ]; then
  echo "TEMPORAL_SERVER_BIN=$BIN/temporal-server-$TEMPORAL_SERVER_VERSION"
  echo "TEMPORAL_SQL_TOOL=$BIN/temporal-sql-tool-$TEMPORAL_SERVER_VERSION"
  echo "TEMPORAL_SCHEMA_DIR=$SCHEMA_DIR"
  echo "MAILPIT_BIN=$BIN/mailpit-$MAILPIT_VERSION"
  echo "NODE24_BIN=$NODE_BIN"
fi
