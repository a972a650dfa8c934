#!/usr/bin/env bash
# Makes `docker compose config` available for CI's check of docker-compose.yml. The machines have the Docker
# client but no Compose plugin; it builds from Go modules (once; Go's module and build caches keep it).
set -euo pipefail
if docker compose version >/dev/null 2>&1; then exit 0; fi
GO=${GO:-$(command -v go || echo /usr/local/go/bin/go)}
if [ ! -x "$GO" ]; then
  echo "ensure-compose: no Compose plugin and no Go toolchain" >&2
  exit 1
fi
echo "ensure-compose: building the Compose plugin (docker/compose v2.29.7) with $GO"
GOBIN=$(mktemp -d)
GOBIN="$GOBIN" GOFLAGS=-mod=mod "$GO" install github.com/docker/compose/v2/cmd@v2.29.7
mkdir -p "$HOME/.docker/cli-plugins"
install -m 0755 "$GOBIN/cmd" "$HOME/.docker/cli-plugins/docker-compose"
rm -rf "$GOBIN"
docker compose version
