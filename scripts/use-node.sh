#!/usr/bin/env bash
# Prints a directory holding the Node.js the project pins (.node-version), installing it from the npm
# registry (the `node` package) into a per-user cache the first time. Put it first on PATH so that npm
# itself runs on that Node too, on a machine whose own Node is older:
#   export PATH="$(scripts/use-node.sh):$PATH"
# (npm's scripts run on the pinned Node either way: it is a dependency, node_modules/.bin/node.)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
version="$(tr -d '[:space:]v' < "$root/.node-version")"
prefix="${OUTREACH_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/outreach}/node-$version"
bin="$prefix/node_modules/.bin"
if [ "$("$bin/node" --version 2>/dev/null)" != "v$version" ]; then
  echo "use-node: installing Node.js $version from the npm registry into $prefix" >&2
  mkdir -p "$prefix"
  (cd "$prefix" && npm install --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node@$version" >&2)
fi
echo "$bin"
