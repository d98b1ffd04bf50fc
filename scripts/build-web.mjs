// Builds the web app (apps/web, Vite) into apps/web/dist, which the gateway serves at `/`.
//   node scripts/build-web.mjs             build
//   node scripts/build-web.mjs --if-stale  build only when dist is missing or older than the sources
// `npm install` (postinstall) and `npm start` run it with --if-stale, so a fresh clone serves the app.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const web = join(root, 'apps', 'web');
const dist = join(web, 'dist');
const stampFile = join(dist, '.source-hash');

/** A hash of everything the build reads from the app: its sources, page, config and dependencies. */
function sourceHash() {
  const hash = createHash('sha256');
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk(join(web, 'src'));
  for (const file of ['index.html', 'vite.config.ts', 'package.json', 'public']) {
    const path = join(web, file);
    if (!existsSync(path)) continue;
    if (statSync(path).isDirectory()) walk(path);
    else files.push(path);
  }
  for (const file of files.sort()) hash.update(relative(web, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

const ifStale = process.argv.includes('--if-stale');
const hash = sourceHash();
if (ifStale && existsSync(join(dist, 'index.html')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === hash) {
  process.exit(0);
}
const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
if (!existsSync(vite)) {
  console.error('build-web: vite is not installed (run `npm install`); the gateway answers 503 at / until the app is built.');
  process.exit(ifStale ? 0 : 1);
}
const started = Date.now();
console.log('build-web: building the web app (apps/web → apps/web/dist)…');
const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: web, stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
writeFileSync(stampFile, hash);
console.log(`build-web: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
