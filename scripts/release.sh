#!/usr/bin/env bash
# Builds the release bundle, the same one the Dockerfile's build stage makes:
#   release/outreach-<version>-<platform>/         ready to run: cd there and
#       node_modules/.bin/node --enable-source-maps apps/gateway/dist/main.js      (the server)
#       node_modules/.bin/node apps/gateway/dist/cli.js <command>                  (the CLI)
#   release/outreach-<version>-<platform>.tar.gz   the same directory, packed
# It holds the compiled gateway and web app, the migrations, and the production dependencies only,
# Node.js itself among them (the `node` package the project pins): no npm, tsx or compiler at run time.
#   scripts/release.sh [output directory]     default: release/
# From a clean checkout: it installs the build's dependencies first when node_modules is missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
log() { echo "release: $*" >&2; }

outroot="$(mkdir -p "${1:-release}" && cd "${1:-release}" && pwd)"
version="$(node -p "require('./package.json').version")"
if [ ! -x node_modules/.bin/node ]; then
  log "installing the build's dependencies (npm ci)"
  npm ci --no-audit --no-fund
fi
platform="$(node_modules/.bin/node -p 'process.platform + "-" + process.arch')"
name="outreach-$version-$platform"
out="$outroot/$name"

log "building (scripts/build.mjs --if-stale: what the install built is reused when its sources are unchanged)"
node_modules/.bin/node scripts/build.mjs --if-stale

log "assembling $out"
rm -rf "$out" "$out.tar.gz"
mkdir -p "$out"
# The web app ships as its built files only; its manifest and build tools stay out.
files=(
  package.json package-lock.json .npmrc .node-version LICENSE README.md CHANGELOG.md
  apps/gateway/package.json apps/gateway/bin apps/gateway/dist apps/web/dist
  packages/core/package.json packages/db/package.json
  prisma/schema.prisma prisma/migrations
  deploy compose.yaml docs/operations.md
)
for f in "${files[@]}"; do
  [ -e "$f" ] || { log "missing $f"; exit 1; }
  mkdir -p "$out/$(dirname "$f")"
  cp -R "$f" "$out/$f"
done
find "$out/apps/gateway/dist" -name '.inputs.json' -delete
# The bundle's manifest: the workspaces whose dependencies the compiled code imports, no dev dependencies,
# and one script (`npm start` runs the server there too).
node_modules/.bin/node -e '
  const fs = require("node:fs"); const file = process.argv[1];
  const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
  pkg.workspaces = pkg.workspaces.filter((w) => w !== "apps/web");
  delete pkg.devDependencies;
  pkg.scripts = { start: "exec node --enable-source-maps apps/gateway/dist/main.js" };
  fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + "\n");
' "$out/package.json"

log "installing the production dependencies"
# From the lockfile's versions. Install scripts are off but for Node's own (the `node` package fetches its binary).
(
  cd "$out"
  npm install --omit=dev --ignore-scripts --prefer-offline --no-audit --no-fund --loglevel=error
  NODE_OPTIONS=--no-deprecation npm rebuild node --loglevel=error >/dev/null
  # The workspace links point at packages whose code is already in the bundle.
  rm -rf node_modules/@outreach
)
[ "$("$out/node_modules/.bin/node" --version)" = "v$(tr -d '[:space:]v' < .node-version)" ] || { log "the bundle's Node.js is not the pinned one"; exit 1; }

log "checking the bundle: it starts on its own Node with no other PATH, answers /readyz and /, stops on SIGTERM"
check_dir="$(mktemp -d)"
port=$(( 20000 + RANDOM % 20000 ))
( cd "$out" && exec env -i PATH=/usr/bin:/bin HOME="$check_dir" DATA_DIR="$check_dir/data" PORT="$port" HOST=127.0.0.1 LOG_LEVEL=warn \
    node_modules/.bin/node apps/gateway/dist/main.js >"$check_dir/out.log" 2>&1 ) &
server=$!
"$out/node_modules/.bin/node" -e '
  const base = `http://127.0.0.1:${process.argv[1]}`;
  const deadline = Date.now() + 180_000;
  const get = (path) => fetch(base + path, { signal: AbortSignal.timeout(5_000) }).then((r) => r.status, () => 0);
  (async () => {
    while ((await get("/readyz")) !== 200) {
      if (Date.now() > deadline) { console.error("release: the bundle did not become ready"); process.exit(1); }
      await new Promise((r) => setTimeout(r, 250));
    }
    const web = await get("/");
    if (web !== 200) { console.error(`release: the bundle answered ${web} for the web app`); process.exit(1); }
  })();
' "$port" || { cat "$check_dir/out.log" >&2; kill -9 "$server" 2>/dev/null; exit 1; }
kill -TERM "$server"
if ! wait "$server"; then log "the bundle did not stop cleanly on SIGTERM"; cat "$check_dir/out.log" >&2; exit 1; fi
rm -rf "$check_dir"

tar -C "$outroot" -czf "$out.tar.gz" "$name"
log "done: $out ($(du -sh "$out" | cut -f1)), $out.tar.gz ($(du -sh "$out.tar.gz" | cut -f1))"
